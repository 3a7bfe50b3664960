"""The ratings' public routes (:mod:`paiute.server.ratings`): a player's profile and the leaderboard.

Both answer anyone and read no credential: a profile shows an account's name, rating and its
latest rated results, which are all of finished matches (a rating is written at a match's
end); a private table's result comes without the table's id or name.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam

from paiute.server.api import ERROR_RESPONSES, Limited
from paiute.server.ratings import Ratings

__all__ = ["router"]

PlayerName = Annotated[str, PathParam(min_length=1, max_length=128, description="the account's name")]

router = APIRouter(prefix="/api", responses=ERROR_RESPONSES, dependencies=[Limited], tags=["ratings"])


def ratings_of(request: Request) -> Ratings:
    ratings: Ratings = request.app.state.ratings
    return ratings


@router.get("/players/{name}", summary="A player's rating and latest rated results (public)")
async def player(name: PlayerName, request: Request) -> dict[str, Any]:
    return await ratings_of(request).profile(name)


@router.get(
    "/leaderboard",
    summary="The rated players, established ratings first, then provisional ones, each by rating",
)
async def leaderboard(
    request: Request,
    page: Annotated[int, Query(ge=1, le=10_000)] = 1,
    per_page: Annotated[int, Query(ge=1, le=100)] = 50,
    provisional: Annotated[bool, Query(description="false: established ratings only")] = True,
) -> dict[str, Any]:
    return await ratings_of(request).leaderboard(page, per_page, provisional=provisional)
