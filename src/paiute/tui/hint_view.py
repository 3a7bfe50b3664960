"""A :class:`~paiute.analysis.hint.Hint` in words: the move, the reasons, the table of moves.

Shared by the full screen, ``--plain`` and ``paiute hint``; plain text, so ``paiute hint`` runs
without the terminal extra. Built from the hint and the seat's
observation only (R9): every card named is in the seat's hand or on the table, except the
outs, which are the cards the seat has not seen (each may be anywhere unseen).

Every figure is net chips, written one way (:meth:`~paiute.i18n.Translator.chips`: ``+0.75``,
``-0.31``), in columns that line up; the table of moves is headed by the recommended move.

>>> from paiute import Deal, RuleSet, SeededChance
>>> from paiute.analysis.hint import hint
>>> deal = Deal.new(RuleSet(), players=3, dealer=0, chance=SeededChance(9), balances=[9, 9, 9], pot=3)
>>> obs = deal.observation(1)
>>> lines = hint_lines(hint(obs, playouts=2, draw_playouts=2, seed=1), obs, ("Ana", "Bo", "Cy"))
>>> lines[0].startswith("Hint: ")
True
>>> print(lines[2])
  Outs: 6 of the 46 cards you have not seen complete a combination: Jh* Js* Qs Kd Kh Ks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from paiute.actions import Action
from paiute.analysis.hint import Hint
from paiute.cards import Card
from paiute.errors import N_
from paiute.i18n import Translator, translator
from paiute.observation import Observation
from paiute.tui.describe import action_text, cards_text

__all__ = ["FEED_WORTH_SAYING", "hint_lines", "percent"]

#: The feed chance (R4.2) from which a hint says in words that a discard may feed the next
#: player: some four times the share of greedy's discards that do (2-5%, docs/guarded.md).
FEED_WORTH_SAYING = 0.10


def percent(chance: float, tr: Translator) -> str:
    """A chance as a whole percentage in the language's digits (``41%``)."""
    return tr.gettext(N_("{percent}%"), percent=tr.number(round(chance * 100)))


def _columns(cells: Sequence[Sequence[str]]) -> list[list[str]]:
    """``cells`` (rows of figures) with each column right-aligned to its widest cell."""
    widths = [max(len(row[column]) for row in cells) for column in range(len(cells[0]))] if cells else []
    return [[cell.rjust(width) for cell, width in zip(row, widths, strict=True)] for row in cells]


def hint_lines(
    found: Hint,
    obs: Observation,
    names: Sequence[str],
    *,
    pretty: bool = False,
    tr: Translator | None = None,
) -> list[str]:
    """The hint as lines: the move (always the expert's; the playouts explain it), why
    (the plan, the outs, the feed chance, the call's chance), then every legal move's expected
    chips with its 95% interval and, for a discard, its feed chance."""
    tr = tr or translator()
    wild = obs.wild_cards

    def cards(items: Sequence[Card]) -> str:
        return cards_text(items, wild, pretty=pretty, tr=tr)

    def move(item: Action) -> str:
        return action_text(item, obs, pretty=pretty, tr=tr)

    action = move(found.recommended)
    if len(found.estimates) == 1:
        lines = [tr.gettext(N_("Hint: {action} (your only legal move now)."), action=action)]
    else:
        lines = [
            tr.ngettext(
                "Hint: {action} (the expert's move; below, each of the {n} moves played out {playouts} time).",
                "Hint: {action} (the expert's move; below, each of the {n} moves played out {playouts} times).",
                found.playouts,
                action=action,
                n=tr.number(len(found.estimates)),
                playouts=tr.number(found.playouts),
            )
        ]
    lines.extend(_rated_higher(found, move, tr))
    lines.extend(_feed_lines(found, names, cards, tr))
    plan = found.plan
    if plan is not None:
        if plan.pile_completes is not None:
            lines.append(
                tr.gettext(
                    N_("  The top of the discard pile completes {value} now."),
                    value=tr.value(plan.pile_completes),
                )
            )
        if plan.category is not None and plan.cards_away == 1:
            lines.append(
                tr.gettext(
                    N_("  Why: keeping {cards}, you are one card from {combination} (with {uses})."),
                    cards=cards(plan.keeps),
                    combination=tr.category(plan.category),
                    uses=cards(plan.uses),
                )
            )
            lines.append(
                tr.gettext(
                    N_(
                        "  Outs: {outs} of the {unseen} cards you have not seen complete a combination: {cards}."
                    ),
                    outs=tr.number(plan.outs),
                    unseen=tr.number(plan.unseen),
                    cards=cards(plan.out_cards),
                )
            )
            if len(plan.by_category) > 1:
                parts = tr.gettext(N_(", ")).join(
                    tr.gettext(N_("{combination} {count}"), combination=tr.category(c), count=tr.number(n))
                    for c, n in plan.by_category
                )
                lines.append(tr.gettext(N_("  Outs by combination: {parts}."), parts=parts))
        elif plan.category is not None:
            lines.append(
                tr.gettext(
                    N_(
                        "  Why: keeping {cards}, you are two cards from {combination} (with {uses}); no single card completes a combination yet."
                    ),
                    cards=cards(plan.keeps),
                    combination=tr.category(plan.category),
                    uses=cards(plan.uses) or tr.gettext(N_("(any)")),
                )
            )
        else:
            lines.append(
                tr.gettext(
                    N_("  Why: keeping {cards}; no winning combination is within two cards of them yet."),
                    cards=cards(plan.keeps),
                )
            )
        if plan.last_turn:
            lines.append(tr.gettext(N_("  This is your last turn (R7.2): no draw is left to complete it.")))
        elif plan.category is not None:
            lines.append(
                tr.gettext(
                    N_(
                        "  Chance to complete it in the {draws} draws from the stock likely left to you: {chance}."
                    ),
                    draws=tr.number(round(plan.draws_left, 1)),
                    chance=percent(plan.chance, tr),
                )
            )
    for odds in found.calls:
        if odds.certain:
            lines.append(
                tr.gettext(
                    N_(
                        "  Calling {value}: nobody has a turn after you (R7.1, R7.3) and no call shown beats it (R6.4), so it wins (a tie shares the pot, R8.3)."
                    ),
                    value=tr.value(odds.value),
                )
            )
            continue
        who = tr.gettext(N_(", ")).join(names[seat] for seat in odds.still_to_play)
        lines.append(
            tr.gettext(
                N_(
                    "  Calling {value} wins {chance} of the playouts ({low} to {high}); {who} still to play (R7.2)."
                ),
                value=tr.value(odds.value),
                chance=percent(odds.chance, tr),
                low=percent(odds.low, tr),
                high=percent(odds.high, tr),
                who=who,
            )
        )
    lines.append(
        tr.gettext(
            N_(
                "Chips you expect to win or lose this deal with each move, after your stake (0 is break-even), with a {level} interval:"
            ),
            level=percent(0.95, tr),
        )
    )
    ordered = found.ordered  # the recommended move heads the table
    figures = _columns(
        [
            [tr.chips(e.mean), *(tr.chips(x) if e.samples > 1 else "?" for x in (e.low, e.high))]
            for e in ordered
        ]
    )
    labels = [move(e.action) for e in ordered]
    feeds = [found.feed(e.action) for e in ordered]
    # The action's column is as wide as its longest entry where a note follows it, so that the
    # notes line up too (and no line ends in spaces).
    width = max(len(label) for label in labels)
    for index, (estimate, (chips, low, high), label, feed) in enumerate(
        zip(ordered, figures, labels, feeds, strict=True)
    ):
        noted = feed is not None or estimate.action == found.recommended
        row = tr.gettext(
            N_("  {chips} [{low}, {high}]  {action}"),
            chips=chips,
            low=low,
            high=high,
            action=label.ljust(width) if noted else label,
        )
        if feed is not None:
            row = tr.gettext(
                N_("{row}  (next player could call with it: {chance})"),
                row=row,
                chance=percent(feed, tr),
            )
        if index == 0:
            row = tr.gettext(N_("{row}  <- the hint"), row=row)
        lines.append(row.rstrip())
    return lines


def _rated_higher(found: Hint, move: Callable[[Action], str], tr: Translator) -> list[str]:
    """One sentence where the playouts rate another move above the recommended one: why the hint
    keeps the expert's move (within the playouts' noise they cannot tell; beyond it, moves
    chosen by the playouts lost chips in play, :mod:`paiute.analysis.hint`)."""
    top = found.top
    if top is None:
        return []
    gain, low, high = found.versus(top.action)
    params = {
        "action": move(top.action),
        "chips": tr.chips(gain),
        "low": tr.chips(low),
        "high": tr.chips(high),
        "hint": move(found.recommended),
        "playouts": tr.number(found.playouts),
    }
    if top.action == found.beyond_noise:
        return [
            tr.gettext(
                N_(
                    "  The playouts rate another move higher, {action}, by {chips} chips [{low}, {high}], beyond their noise; the hint still keeps the expert's move, {hint}: moves chosen by the playouts lost chips against the expert's in play (they play greedy after the move)."
                ),
                **params,
            )
        ]
    return [
        tr.ngettext(
            "  The playouts rate another move higher, {action}, by {chips} chips, but that is within their noise ({playouts} playout); the hint keeps the expert's move, {hint}.",
            "  The playouts rate another move higher, {action}, by {chips} chips, but that is within their noise ({playouts} playouts); the hint keeps the expert's move, {hint}.",
            found.playouts,
            **params,
        )
    ]


def _feed_lines(
    found: Hint, names: Sequence[str], cards: Callable[[Sequence[Card]], str], tr: Translator
) -> list[str]:
    """A line on the riskiest discard, where its feed chance is worth saying (R4.2)."""
    if found.feed_seat is None:
        return []
    risks = [
        (feed, e.action) for e, feed in zip(found.estimates, found.feeds, strict=True) if feed is not None
    ]
    feed, riskiest = max(risks, key=lambda item: item[0])
    if feed < FEED_WORTH_SAYING or riskiest.card is None:
        return []
    params = {"name": names[found.feed_seat], "card": cards([riskiest.card]), "chance": percent(feed, tr)}
    if riskiest != found.recommended:
        message = N_(
            "  Not {card}: the next player, {name}, could call at once with it about {chance} of the time (a chance learned from public play, R4.2)."
        )
    else:
        message = N_(
            "  The next player, {name}, could call at once with {card} about {chance} of the time (a chance learned from public play, R4.2)."
        )
    return [tr.gettext(message, **params)]
