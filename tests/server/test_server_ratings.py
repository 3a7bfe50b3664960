"""Rated matches on a real ``paiute serve`` (127.0.0.1): who may make and sit at a rated table,
hints off there, each account rated once at the end (a restart, even one that finds the match
unrated, does not rate it again), a seat handed to the bot placed last, and the public profile
and leaderboard. Each ``httpx.Client`` is one browser (its own cookies)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_helpers import serve
from server_helpers import ServerProcess, auth, play_http, start, state
from sqlalchemy import delete, select
from test_server_accounts import FLAGS, error, sign_up
from test_server_accounts_schema import schema_url  # noqa: F401 - a fixture of this module

from paiute.server.db import Store
from paiute.server.ratings import (
    DISPLAY_BASE,
    PROVISIONAL_GAMES,
    rated_matches_table,
    rating_history_table,
    ratings_table,
)

Browser = Callable[[], httpx.Client]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with serve(tmp_path_factory.mktemp("ratings"), extra=FLAGS) as running:
        yield running


def browsers_of(server: ServerProcess) -> tuple[Browser, list[httpx.Client]]:
    made: list[httpx.Client] = []

    def browser() -> httpx.Client:
        client = httpx.Client(base_url=server.url, timeout=30)
        made.append(client)
        return client

    return browser, made


@pytest.fixture
def browsers(server: ServerProcess) -> Iterator[Browser]:
    """Make browsers (clients with their own cookies) for a test; all closed after it."""
    browser, made = browsers_of(server)
    yield browser
    for client in made:
        client.close()


def account(browser: Browser, name: str) -> httpx.Client:
    """A browser logged in to a new account ``name``."""
    client = browser()
    signed = sign_up(client, name)
    assert signed.status_code == 201, signed.text
    return client


def rated_table(client: httpx.Client, seats: int, **body: Any) -> tuple[str, str, dict[str, Any]]:
    """A rated table made by the account of ``client``: its id, the creator's token, the answer."""
    payload = {
        "player_name": "typed name",
        "seats": seats,
        "rated": True,
        "max_deals": 1,
        "turn_seconds": 600,
    }
    made = client.post("/api/tables", json={**payload, **body})
    assert made.status_code == 201, made.text
    return made.json()["table"]["id"], made.json()["token"], made.json()


def join(client: httpx.Client, table_id: str, **body: Any) -> httpx.Response:
    return client.post(f"/api/tables/{table_id}/join", json={"name": "typed name", **body})


def profile(client: httpx.Client, name: str) -> dict[str, Any]:
    response = client.get(f"/api/players/{name}")
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def rated_profiles(client: httpx.Client, names: list[str], games: int = 1) -> dict[str, dict[str, Any]]:
    """The profiles of ``names``, once each has ``games`` rated matches (rated just after the end)."""
    for _ in range(300):
        found = {name: profile(client, name) for name in names}
        if all(item["games"] >= games for item in found.values()):
            return found
        time.sleep(0.05)
    raise AssertionError(f"never rated: {found}")


def to_move(client: httpx.Client, table_id: str, tokens: dict[int, str]) -> int:
    """The seat whose move (or cut) the table waits for."""
    for _ in range(400):
        view = state(client, table_id)
        if view["status"] == "cut":
            return int(view["cutter"])
        if view["status"] == "playing":
            return int(view["observation"]["current_seat"])
        time.sleep(0.02)
    raise AssertionError("the match never started")


def play_rated_match(
    browser: Browser, names: list[str], **body: Any
) -> tuple[str, dict[str, Any], list[Any]]:
    """Accounts ``names`` play a rated match of one deal to its end: the table's id, its
    final View and the clients (the first made the table)."""
    clients = [account(browser, name) for name in names]
    table_id, token, _ = rated_table(clients[0], len(names), **body)
    tokens = {0: token}
    for client in clients[1:]:
        joined = join(client, table_id)
        assert joined.status_code == 200, joined.text
        tokens[joined.json()["seat"]] = joined.json()["token"]
    start(clients[0], table_id, token)
    final = play_http(clients[0], table_id, tokens, random.Random(len(table_id)))
    return table_id, final, clients


def places_by_chips(balances: list[int]) -> list[int]:
    return [1 + sum(1 for other in balances if other > chips) for chips in balances]


# -- making and sitting at a rated table ----------------------------------------------------------


def test_a_rated_table_is_made_by_an_account_without_bots_hints_or_a_missing_clock(browsers: Browser) -> None:
    anonymous = browsers()
    body = {"player_name": "Ana", "seats": 2, "rated": True}
    assert error(anonymous.post("/api/tables", json=body)) == (403, "forbidden")
    creator = account(browsers, "Ravindra")
    for breaking in ({"bots": "medium"}, {"hints": True}, {"private": True, "turn_seconds": None}):
        refused = creator.post("/api/tables", json={**body, **breaking})
        assert error(refused) == (400, "bad_request"), breaking
        assert "rated" in refused.json()["error"]["message"]
        assert "\n" not in refused.json()["error"]["message"]
    table_id, _, made = rated_table(creator, 2)
    summary = made["table"]
    assert summary["rated"] is True
    assert summary["bots"] is None
    assert summary["hints"] is False
    assert summary["turn_seconds"] == 600
    # The seat is the account's, under its name (the typed name is not used).
    assert (summary["players"][0]["name"], summary["players"][0]["account"]) == ("Ravindra", "Ravindra")
    lobby = anonymous.get("/api/tables").json()["tables"]
    assert next(item for item in lobby if item["id"] == table_id)["rated"] is True
    unrated = creator.post("/api/tables", json={"player_name": "Ravi", "seats": 2})
    assert unrated.json()["table"]["rated"] is False
    assert unrated.json()["table"]["players"][0]["account"] is None


def test_only_accounts_sit_at_a_rated_table_each_once(browsers: Browser) -> None:
    creator = account(browsers, "Rosamund")
    table_id, _, _ = rated_table(creator, 3)
    anonymous = browsers()
    refused = join(anonymous, table_id)
    assert error(refused) == (403, "forbidden")
    assert "rated" in refused.json()["error"]["message"]
    assert error(join(creator, table_id)) == (409, "conflict")  # the account has its seat already
    elsewhere = browsers()
    assert elsewhere.post(
        "/api/login", json={"name": "Rosamund", "password": "correct horse battery"}
    ).is_success
    assert error(join(elsewhere, table_id)) == (409, "conflict")  # nor from another device
    guest = account(browsers, "Rupert")
    joined = join(guest, table_id, name="Somebody Else")
    assert joined.status_code == 200, joined.text
    seated = state(guest, table_id)["table"]["players"][joined.json()["seat"]]
    assert (seated["name"], seated["account"]) == ("Rupert", "Rupert")
    # An unrated table seats anyone, as ever.
    open_table = creator.post("/api/tables", json={"player_name": "Rosamund", "seats": 2}).json()
    assert join(anonymous, open_table["table"]["id"]).status_code == 200


def test_a_rated_table_left_before_the_start_frees_the_seat_for_another_account(browsers: Browser) -> None:
    creator = account(browsers, "Radomir")
    table_id, _, _ = rated_table(creator, 2)
    first = account(browsers, "Raisa")
    seat = join(first, table_id).json()
    left = first.post(f"/api/tables/{table_id}/leave", json={"id": "go"}, headers=auth(seat["token"]))
    assert left.status_code == 200, left.text
    assert join(account(browsers, "Rainer"), table_id).json()["seat"] == seat["seat"]
    players = state(creator, table_id)["table"]["players"]
    assert [player["account"] for player in players] == ["Radomir", "Rainer"]


# -- a rated match ---------------------------------------------------------------------------------


def test_hints_are_refused_at_a_rated_table_with_reason_rated(browsers: Browser) -> None:
    creator, guest = account(browsers, "Rhiannon"), account(browsers, "Rodrigo")
    table_id, token, _ = rated_table(creator, 2)
    joined = join(guest, table_id).json()
    tokens = {0: token, joined["seat"]: joined["token"]}
    start(creator, table_id, token)
    for seat, held in tokens.items():
        assert state(creator, table_id, held)["hints"] == {"on": False, "reason": "rated"}, seat
    mover = to_move(creator, table_id, tokens)
    refused = creator.post(f"/api/tables/{table_id}/hint", headers=auth(tokens[mover]))
    assert error(refused) == (403, "hints_off")
    assert (
        refused.json()["error"]["message"] == "hints are off at a rated table: each player plays on their own"
    )
    # Even once the other has left the match (one person with bots: hints would be on).
    other = 1 - mover
    left = creator.post(f"/api/tables/{table_id}/leave", json={"id": "bye"}, headers=auth(tokens[other]))
    assert left.status_code == 200, left.text
    assert state(creator, table_id, tokens[mover])["hints"] == {"on": False, "reason": "rated"}
    assert error(creator.post(f"/api/tables/{table_id}/hint", headers=auth(tokens[mover]))) == (
        403,
        "hints_off",
    )


def test_a_rated_match_rates_each_account_once_by_its_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three accounts play; each is rated once, by its place; a restart rates nothing again,
    and a restart that finds the match unrated (stopped between its end and its rating)
    rates it, once, the same."""
    names = ["Renata", "Reinhold", "Rukmini"]
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    with serve(tmp_path, extra=FLAGS) as server:
        browser, made = browsers_of(server)
        table_id, final, _ = play_rated_match(browser, names)
        viewer = browser()
        rated = rated_profiles(viewer, names)
        for client in made:
            client.close()
    places = places_by_chips(final["balances"])
    seat_of = {player["account"]: player["seat"] for player in final["table"]["players"]}
    for name, found in rated.items():
        (result,) = found["recent"]
        assert found["games"] == 1
        assert found["provisional"] is True
        assert (result["table"], result["place"], result["of"]) == (table_id, places[seat_of[name]], 3)
        assert result["rating_before"] == DISPLAY_BASE
        assert result["rating"] == found["rating"]
        assert result["change"] == found["rating"] - DISPLAY_BASE
    best = min(rated, key=lambda name: places[seat_of[name]])
    worst = max(rated, key=lambda name: places[seat_of[name]])
    if places[seat_of[best]] < places[seat_of[worst]]:
        assert rated[best]["rating"] > DISPLAY_BASE > rated[worst]["rating"]

    def timeless(found: dict[str, dict[str, Any]]) -> dict[str, Any]:
        """The profiles less when each result was rated."""
        return {
            name: {**item, "recent": [{**result, "at": None} for result in item["recent"]]}
            for name, item in found.items()
        }

    def restarted() -> dict[str, Any]:
        with serve(tmp_path, extra=FLAGS) as again, httpx.Client(base_url=again.url, timeout=30) as client:
            time.sleep(1.0)  # a rating the start would (wrongly) apply has had time to be written
            return timeless(rated_profiles(client, names))

    assert restarted() == timeless(rated)
    # As if the server had stopped between the match's end and its rating: the start rates it.
    store = Store(url)
    try:
        with store.engine.begin() as connection:
            for table in (rating_history_table, rated_matches_table, ratings_table):
                connection.execute(delete(table))
    finally:
        store.dispose()
    assert restarted() == timeless(rated)
    assert restarted() == timeless(rated)


def test_two_processes_on_one_postgresql_database_rate_a_match_once(
    schema_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    """The table is held by both processes (a seat joined through each): both apply its
    ``closed`` event and try to rate it; the accounts are rated once."""
    names = ["Radegund", "Rinaldo"]
    servers = [ServerProcess(schema_url, tmp_path / f"server{n}.log", extra=FLAGS) for n in (1, 2)]
    try:
        clients = [httpx.Client(base_url=server.url, timeout=30) for server in servers]
        for client, name in zip(clients, names, strict=True):
            assert sign_up(client, name).status_code == 201
        table_id, token, _ = rated_table(clients[0], 2)
        joined = join(clients[1], table_id)  # through the other process
        assert joined.status_code == 200, joined.text
        start(clients[1], table_id, token)
        play_http(clients[0], table_id, {0: token, 1: joined.json()["token"]}, random.Random(8))
        for client in clients:
            rated = rated_profiles(client, names)
            assert {item["games"] for item in rated.values()} == {1}
        time.sleep(1.0)  # the slower process's try has ended too
        assert {item["games"] for item in rated_profiles(clients[0], names).values()} == {1}
        store = Store(schema_url)
        try:
            with store.engine.connect() as connection:
                rows = connection.execute(select(rating_history_table.c.table_id)).scalars().all()
        finally:
            store.dispose()
        assert rows == [table_id, table_id]  # a row per seat, once
        for client in clients:
            client.close()
    finally:
        for server in servers:
            server.stop()


def test_a_person_who_leaves_a_rated_match_is_placed_last_and_a_private_result_stays_private(
    browsers: Browser,
) -> None:
    stayer, leaver = account(browsers, "Rasmus"), account(browsers, "Ramona")
    table_id, token, made = rated_table(stayer, 2, private=True)
    invite = made["invite"].rsplit("invite=", 1)[1]
    joined = join(leaver, table_id, invite=invite)
    assert joined.status_code == 200, joined.text
    start(stayer, table_id, token)
    gone = leaver.post(
        f"/api/tables/{table_id}/leave", json={"id": "bye"}, headers=auth(joined.json()["token"])
    )
    assert gone.status_code == 200, gone.text
    final = play_http(stayer, table_id, {0: token}, random.Random(3))  # the bot plays the other seat
    assert final["table"]["players"][1]["autoplay"] == "left"
    assert final["table"]["rated"] is True
    rated = rated_profiles(browsers(), ["Rasmus", "Ramona"])
    assert rated["Rasmus"]["recent"][0]["place"] == 1  # whatever the chips: the other left
    assert rated["Ramona"]["recent"][0]["place"] == 2
    assert rated["Rasmus"]["rating"] > DISPLAY_BASE > rated["Ramona"]["rating"]
    for found in rated.values():
        (result,) = found["recent"]
        assert (result["table"], result["table_name"]) == (None, None)  # a private table
        assert table_id not in str(found)
    # The rematch is rated too, and its seat the same account's.
    rematch = stayer.post(f"/api/tables/{table_id}/rematch", headers=auth(token))
    assert rematch.status_code == 200, rematch.text
    again = rematch.json()["table"]
    assert again["rated"] is True
    assert again["players"][0]["account"] == "Rasmus"


def test_a_match_that_ends_before_any_deal_changes_no_rating(browsers: Browser) -> None:
    first, second = account(browsers, "Rolanda"), account(browsers, "Romeo")
    table_id, token, _ = rated_table(first, 2)
    joined = join(second, table_id).json()
    start(first, table_id, token)
    for held in (token, joined["token"]):
        assert first.post(f"/api/tables/{table_id}/leave", json={"id": "x"}, headers=auth(held)).is_success
    assert state(first, table_id)["status"] == "closed"
    time.sleep(1.0)
    for name in ("Rolanda", "Romeo"):
        found = profile(first, name)
        assert (found["games"], found["rating"], found["recent"]) == (0, DISPLAY_BASE, [])


# -- profiles and the leaderboard -------------------------------------------------------------------


def test_profiles_and_the_leaderboard_show_provisional_ratings(browsers: Browser) -> None:
    names = ["Lavinia", "Leopold"]
    play_rated_match(browsers, names)
    viewer = browsers()  # anonymous: both are public
    rated = rated_profiles(viewer, names)
    assert profile(viewer, "LAVINIA")["name"] == "Lavinia"  # found whatever the case
    board = viewer.get("/api/leaderboard", params={"per_page": 100}).json()
    listed = {entry["name"]: entry for entry in board["players"]}
    for name in names:
        entry = listed[name]
        assert entry["provisional"] is True
        assert entry["games"] == 1 < PROVISIONAL_GAMES
        assert entry["rating"] == rated[name]["rating"]
    ranks = [entry["rank"] for entry in board["players"]]
    assert ranks == list(range(1, len(ranks) + 1))
    ratings = [entry["rating"] for entry in board["players"]]
    assert ratings == sorted(ratings, reverse=True)  # all provisional here: by rating
    assert board["total"] == len(board["players"])
    first = viewer.get("/api/leaderboard", params={"per_page": 1, "page": 2}).json()
    assert first["players"][0]["rank"] == 2
    assert first["players"][0]["name"] == board["players"][1]["name"]
    established = viewer.get("/api/leaderboard", params={"provisional": "false"}).json()
    assert established == {"players": [], "total": 0, "page": 1, "per_page": 50}
    never = account(browsers, "Lucasta")  # an account without a rated match: provisional, unlisted
    assert profile(never, "Lucasta") == {
        "name": "Lucasta",
        "rating": DISPLAY_BASE,
        "deviation": 350,
        "provisional": True,
        "games": 0,
        "mu": 25.0,
        "sigma": pytest.approx(25 / 3),
        "recent": [],
    }
    assert "Lucasta" not in str(viewer.get("/api/leaderboard").json())
    missing = viewer.get("/api/players/Nobody%20At%20All")
    assert error(missing) == (404, "not_found")
    assert "Nobody At All" in missing.json()["error"]["message"]


def test_the_pages_of_the_leaderboard_and_a_profile_are_served(browsers: Browser) -> None:
    client = browsers()
    for path in ("/leaderboard", "/players/Lavinia", "/players/nobody"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert "text/html" in page.headers["content-type"]
