"""Cutting a deal that R4.7 does not end: the one rule of every learning interface
(docs/rules.md, reading 17).

A deal in which ``max_turns`` turns have been played without a call is cut where the next turn
would start, and settled as a dead deal (R8.5: nobody wins). After a call the last round (R7.2)
is always played out. The tables of :mod:`paiute.envs.table` (PettingZoo, Gymnasium) and
:mod:`paiute.envs.openspiel_table` (OpenSpiel) cut with these two functions; the compiled core
cuts its deals the same way (``_end_turn`` and :func:`~paiute.compiled.rules.cut_deal` in
:mod:`paiute.compiled.rules`). The engine itself keeps no turn limit (reading 14).

>>> from paiute import Deal, RuleSet, SeededChance
>>> deal = Deal.new(RuleSet(), players=2, dealer=0, chance=SeededChance(1))
>>> past_max_turns(deal, turns=0, max_turns=1), past_max_turns(deal, turns=1, max_turns=1)
(False, True)
>>> cut_outcome(deal).dead, cut_outcome(deal).winners
(True, ())
"""

from __future__ import annotations

from paiute.deal import Deal, Outcome, Phase

__all__ = ["cut_outcome", "past_max_turns"]


def past_max_turns(deal: Deal, turns: int, max_turns: int) -> bool:
    """Whether ``deal``, ``turns`` turns in, is cut now: ``max_turns`` turns played, nobody has
    called, and a turn is about to start (after a call, R7.2's last round is played out)."""
    return deal.phase is Phase.DRAW and not deal.calls and turns >= max_turns


def cut_outcome(deal: Deal) -> Outcome:
    """The outcome a deal that the rules did not end is settled with: a dead deal, nobody wins
    (R8.5), its calls kept as made."""
    return Outcome(True, deal.calls, ())
