"""What a table's automation does next: the next deal, a bot's move, a clock running out, or
a grace period ending.

Each table held in memory has one automation task
(:meth:`~paiute.server.core.ServiceCore._automate`) that sleeps until the :func:`next_step`
is due (or the table changes), then takes it through the one path that changes a table,
guarded by the version it was planned for.
"""

from __future__ import annotations

from dataclasses import dataclass

from paiute.server.runtime import Runtime, Settings
from paiute.server.tabledata import IN_MATCH

__all__ = ["Step", "next_step"]


@dataclass(frozen=True, slots=True)
class Step:
    """One thing due at a table, at ``due``, planned for its ``version``."""

    kind: str  # "next" (deal), "bot" (a bot's action or cut), "clock" (a timeout), "away"
    seat: int | None
    due: float
    version: int


def next_step(rt: Runtime, settings: Settings) -> Step | None:
    """The next thing due at the table: the next deal, a bot's move (a bot's seat, or a
    person's handed to the bot while someone is still at the table), a clock running out,
    or a grace period ending. The grace periods that no longer apply (the bot plays the
    seat, the match is over, the player is back) are forgotten on the way."""
    table = rt.table
    version = table.version
    steps: list[Step] = []
    # At a lesson table the bots and the match's end wait while the coach waits for its person.
    waits = table.coach_waits()
    if table.status == "deal_over" and not waits:
        steps.append(Step("next", None, table.changed + settings.deal_pause, version))
    actor = table.actor()
    if actor is not None and table.bot_plays(actor):
        if (table.is_bot(actor) or not table.nobody_left()) and not waits:  # nobody there: it waits
            steps.append(Step("bot", actor, table.changed + settings.bot_delay, version))
    elif actor is not None:
        deadline = table.deadline()
        if deadline is not None:
            steps.append(Step("clock", actor, deadline, version))
    for seat, due in list(rt.away.items()):
        if seat in table.autoplay or table.status not in IN_MATCH or rt.connected(seat):
            del rt.away[seat]
        else:
            steps.append(Step("away", seat, due, version))
    return min(steps, key=lambda step: step.due) if steps else None
