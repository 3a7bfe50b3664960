"""A lesson table: ``paiute learn``'s guided first deal, at a table of the web room.

"Learn to play" (``POST /api/lessons``) opens a private table of three, started at once: the
person at seat 0, who deals, and two ``greedy`` bots, Lani and Kai (:func:`lesson_config`,
``TableConfig.lesson``). Its deal is the lesson's prepared one (:mod:`paiute.analysis.lesson`):
:data:`LESSON_DEALS` commits the fixed pack with the person as dealer, the bots' cut keeps
its order and the bots are seeded, so the engine plays the same deal as at the terminal. The
fair-deal commitment is made as at every table (R10.2), so its proof verifies; the deal is
known in advance, so the table is never rated, and it is one deal long.

The table keeps the lesson's :class:`~paiute.analysis.lesson.Step`, replayed from its
``lesson`` events, one each time the lesson goes on. The person's inputs come as ``lesson``
messages (:class:`LessonInput`: go on, a card answered, the combinations looked at, or a
draw, discard or call); the script checks each one. Only the step's own input goes on, its
action played and the step moved on in one commit; anything else is answered with the
coach's words and changes nothing. While the current step can be taken (the coach waits for
the person), the bots wait too.

The words are the page's (static/js/lesson.js, in the reader's language): the server sends
what they name, never a sentence, but for the engine's own refusal, which it sends in the
reader's language as every refusal (:func:`reply`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from paiute.actions import Action
from paiute.analysis import lesson as script
from paiute.analysis.lesson import (
    BOT_NAMES,
    LESSON_BOT,
    LESSON_CHIPS,
    LESSON_PACK,
    LESSON_SEATS,
    YOU,
    Check,
    Say,
    Step,
)
from paiute.cards import Card
from paiute.chance import Chance, SeededChance, derive_seed
from paiute.deal import Deal
from paiute.errors import N_, PaiuteError
from paiute.i18n import translator
from paiute.rules import RuleSet
from paiute.server.errors import ServiceError
from paiute.server.tabledata import TableConfig

__all__ = [
    "LESSON_DEALS",
    "LESSON_INPUTS",
    "LESSON_TABLE_NAME",
    "LessonDeals",
    "LessonInput",
    "check",
    "lesson_config",
    "lesson_view",
    "parse_input",
    "reply",
]

#: The lesson table's name (the page shows its own title, in the reader's language).
LESSON_TABLE_NAME = "Learn to play"
#: The kinds of input a ``lesson`` message carries.
LESSON_INPUTS = ("proceed", "answer", "combinations", "action")
_STEPS = list(Step)


class LessonDeals:
    """The chance of a lesson table (a :class:`~paiute.server.deals.DealSource`): the prepared
    deal, every time. Not the secure source: everyone may know this pack."""

    __slots__ = ()

    @property
    def secure(self) -> bool:
        return False

    def dealer(self, seats: int) -> int:
        return YOU

    def order(self, jokers: bool, deal: int) -> list[Card]:
        return list(LESSON_PACK)

    def cut(self, size: int, deal: int) -> int:
        return 0  # the cut keeps the prepared order (R2.4: the cards from 0 on go on top)

    def rebuilds(self, deal: int, version: int) -> Chance:
        return SeededChance(derive_seed("paiute-lesson", "rebuild", deal, version))

    def bot_seed(self, seat: int) -> int | None:
        return script.bot_seed(seat)


LESSON_DEALS = LessonDeals()


def lesson_config(invite: str) -> TableConfig:
    """A lesson table's configuration: private (``invite``), no clock, one deal, two bots."""
    return TableConfig(
        name=LESSON_TABLE_NAME,
        rules=RuleSet(),
        seats=LESSON_SEATS,
        chips=LESSON_CHIPS,
        bots=LESSON_BOT,
        private=True,
        turn_seconds=None,
        max_deals=1,
        invite=invite,
        lesson=True,
    )


def bot_names() -> dict[int, str]:
    """The bots' names by seat."""
    return {YOU + 1 + index: name for index, name in enumerate(BOT_NAMES)}


# -- the person's inputs ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LessonInput:
    """One input of the person: ``kind`` (one of :data:`LESSON_INPUTS`), with the card
    answered or the action it names."""

    kind: str
    card: Card | None = None
    action: Action | None = None


def parse_input(fields: Mapping[str, Any]) -> LessonInput:
    """A ``lesson`` message's fields (``input``, ``card``, ``action``) as an input."""
    kind = fields.get("input")
    try:
        if kind == "answer":
            text = fields.get("card")
            if not isinstance(text, str):
                raise ServiceError("bad_request", N_("an answer names a card of your hand (card)"))
            return LessonInput(kind, card=Card.parse(text))
        if kind == "action":
            text = fields.get("action")
            if not isinstance(text, str):
                raise ServiceError(
                    "bad_request", N_("a lesson action names a draw, discard or call (action)")
                )
            return LessonInput(kind, action=Action.parse(text))
    except PaiuteError as error:
        raise ServiceError("bad_request", str(error), cause=error) from None
    if kind not in LESSON_INPUTS:
        raise ServiceError("bad_request", N_("input is proceed, answer, combinations or action"))
    return LessonInput(str(kind))


def check(step: Step, deal: Deal, what: LessonInput) -> Check:
    """The script's answer to ``what`` at ``step`` (nothing is played here)."""
    if what.kind == "proceed":
        return script.check_proceed(step, deal)
    if what.kind == "answer":
        return script.check_answer(step, deal, what.card)
    if what.kind == "combinations":
        return script.check_combinations(step, deal) or script.hint(step, deal)
    assert what.action is not None
    return script.check_action(step, deal, what.action)


# -- what the page is sent ------------------------------------------------------------------------


def _facts(step: Step, deal: Deal) -> dict[str, Any]:
    """What the coach's words for ``step`` name (the step is ready): cards, seats, values."""
    obs = deal.observation(YOU)
    if step is Step.WILD:
        return {"upcard": None if obs.upcard is None else str(obs.upcard)}
    if step is Step.DISCARD:
        return {"card": str(script.FIRST_DISCARD)}
    if step is Step.TAKE:
        top = script.pile_top(obs)
        pair = script.pair_for(obs.hand, top)
        return {"who": script.discarder(obs), "card": str(top), "pair": None if pair is None else str(pair)}
    if step is Step.TRY_TAKEN:
        return {"card": str(script.taken(obs))}
    if step is Step.DISCARD_OTHER:
        return {"card": str(script.SECOND_DISCARD)}
    if step is Step.LAST_ROUND:
        call = script.caller(obs)
        return {"who": call.seat, "value": call.value.to_json()}
    if step is Step.COMBINATIONS:
        return {"value": script.best_call(obs).value.to_json()}
    if step is Step.RESULT and obs.outcome is not None:
        return {"winners": list(obs.outcome.winners), "pot": obs.pot}
    return {}


def lesson_view(step: Step, deal: Deal | None) -> dict[str, Any]:
    """The lesson's part of the person's View: the step (its number of the 13), whether it can
    be taken now, what the coach's words name, or while the bots play, who plays."""
    view: dict[str, Any] = {"step": step.value, "number": _STEPS.index(step) + 1, "steps": len(_STEPS)}
    if deal is None:  # the pack is still being cut
        view.update(ready=False, facts={})
        return view
    ready = script.ready(step, deal)
    view["ready"] = ready
    if ready:
        view["facts"] = _facts(step, deal)
    else:
        view["facts"] = {"who": None if deal.is_over else deal.current_seat}
    return view


def reply(check: Check, step: Step, deal: Deal, lang: str) -> dict[str, Any]:
    """The coach's answer to an input at ``step``, for the page to word: what it says, whether
    it warns, whether the lesson went on and the step it is at now, the cards it names; a
    refusal's rule and the engine's own sentence in ``lang``; where the hand's combination
    ranks; the call made. ``deal`` is the deal after the input (its action played)."""
    now = script.next_step(step) if check.advance else step
    out: dict[str, Any] = {
        "says": check.says.value,
        "warning": check.warning,
        "advanced": check.advance,
        "step": now.value,
    }
    if check.card is not None:
        out["card"] = str(check.card)
    if check.other is not None:
        out["other"] = str(check.other)
    if check.error is not None:
        out["rule"] = check.error.rule
        out["message"] = translator(lang).explain(check.error.to_actor())
    obs = deal.observation(YOU)
    if check.says is Say.RANKS:
        ranks = script.ranks(obs)
        out["ranks"] = {
            "mine": ranks.mine.value,
            "mine_place": ranks.mine_place,
            "caller": ranks.caller,
            "theirs": ranks.theirs.value,
            "theirs_place": ranks.theirs_place,
            "order": [category.value for category in ranks.order],
        }
    elif check.says is Say.CALLED:
        out["value"] = script.called_value(obs).to_json()
    elif check.says is Say.PLAYING:
        out["who"] = None if deal.is_over else deal.current_seat
    return out
