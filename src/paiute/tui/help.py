"""The help of ``paiute play``: the rules as implemented (with their R-IDs), the table of
combinations, worked examples (valued by the evaluator itself) and the keys or commands.

Every line fits an 80-column terminal.

>>> from paiute import RuleSet
>>> text = rules_text(RuleSet())
>>> "R5.7" in text and "Four/Two, aces over kings" in text
True
>>> max(len(line) for line in (text + TUI_KEYS + PLAIN_COMMANDS).splitlines()) <= 76
True
"""

from __future__ import annotations

import textwrap

from paiute.cards import parse_cards
from paiute.combos import Category
from paiute.errors import N_
from paiute.evaluator import Call, Evaluator, format_arranged
from paiute.i18n import Translator, translator
from paiute.rules import RuleSet
from paiute.tui.cells import display_width, pad

__all__ = [
    "COMBINATION_RULES",
    "COMBINATION_WHAT",
    "GOAL",
    "LESSON_COMMANDS",
    "LESSON_KEYS",
    "PLAIN_COMMANDS",
    "TUI_KEYS",
    "best_first",
    "combinations_list",
    "combinations_table",
    "examples_text",
    "plain_commands",
    "rules_text",
    "tui_keys",
]

TUI_KEYS = N_("""\
KEYS
  s          draw from the stock          d        take the discard-pile top
  1-6 <- ->  choose a card (or click it)  x Enter  discard the chosen card
  c          call: the best call comes first; pick it or another legal one
  w          the winning combinations, best first (R5)
  h          hint: the best move and why (expected chips, outs, odds)
  p          the whole discard pile and the deal's history
  o          sort the hand: by rank, by suit, as dealt (kept for the match)
  ?          this help                    q        save and quit (resume)
  l          the next language: English, Română, Soomaali, বাংলা
  A click chooses a card; a click on the chosen card discards it. Cards
  marked * are wild. The card just drawn is marked "new"; a card you may
  not discard now (taken from the discard pile, R4.3) is dimmed and marked
  "no", and choosing it says which rule forbids it. In a call, 2♥→8♠ is a
  wild card and the card it stands for (R3.4).
""")

LESSON_KEYS = N_("""\
LESSON KEYS
  Enter      go on (or discard the chosen card, as in the game)
  s          draw from the stock          d        take the discard-pile top
  1-6 <- ->  choose a card (or click it)  x        discard the chosen card
  c          call                         w        the combinations in order
  ? Esc      this help                    q        leave the lesson
  The coach's panel at the bottom says what to do next. A key that does not
  fit says what to press instead, and changes nothing.
""")

LESSON_COMMANDS = N_("""\
LESSON COMMANDS (type one, then Enter)
  Enter   go on                       s        draw from the stock
  d       take the discard-pile top   x CARD   discard CARD (x 2c, or x 1)
  N       discard card number N       c        call
  w       the combinations            rules    the rules
  ?       these commands              q        leave the lesson
  The coach says what to do next. A command that does not fit says what to
  type instead, and changes nothing.
""")

#: What the game is about, in one line: the first screen of ``paiute play`` says it.
GOAL = N_("Goal: make a winning combination (w lists them) and call; the best call wins.")

PLAIN_COMMANDS = N_("""\
COMMANDS
  s       draw from the stock           d        take the discard-pile top
  x CARD  discard CARD (x Kh, x 10h)    N        discard card number N
  c       make the best legal call      c CARD   call, putting down CARD
  c6      six-card call (R6.3)          h        hint: the best move and why
  w       the winning combinations, best first (R5)
  p       discard pile and history      rules    rules, table, examples
  sort    sort the hand: by rank, by suit, as dealt (kept for the match)
  ?       these commands                q        save and quit
  Between deals: Enter (or n) for the next deal, q to quit.
""")


def tui_keys(tr: Translator | None = None) -> str:
    """The keys of the full-screen game, in ``tr``'s language."""
    return (tr or translator()).gettext(TUI_KEYS)


def plain_commands(tr: Translator | None = None) -> str:
    """The commands of ``--plain``, in ``tr``'s language."""
    return (tr or translator()).gettext(PLAIN_COMMANDS)


_RULES = (
    N_(
        "Cards (R1). One 52-card pack, ace high; the ace is low only in 5-4-3-2-A (R1.2). "
        "Option jokers (R1.3) adds two jokers. Cards are written 2-9 T J Q K A and a suit "
        "c d h s (or symbols); Jk1, Jk2 are the jokers (R1.4)."
    ),
    N_(
        "The deal (R2). 2 to 5 players, more with max_players (R2.1). The first dealer is "
        "random, then the deal passes left (R2.3). Five cards each (R2.5); the next card is "
        "the upcard, whose rank is wild (R2.6). The rest is the stock (R2.7)."
    ),
    N_(
        "Wild cards (R3). Every card of the upcard's rank is wild (R3.1); with jokers only "
        "the jokers (R3.2). A wild card stands for any card, even a duplicate (R3.4); wild "
        "combinations rank as natural ones (R3.5)."
    ),
    N_(
        "A turn (R4). Draw the stock top or the discard-pile top, then discard or call "
        "(R4.2). A card taken from the discard pile may not be discarded, nor put down with "
        "a call, that turn (R4.3). Draws from the pile and discards are public (R4.5). An "
        "empty stock is rebuilt from the discard pile (R4.6); too many rebuilds before a "
        "call make a dead deal (R4.7)."
    ),
    N_(
        "Calling (R6). After drawing, holding six cards, you may call if they make a "
        "combination (R6.1): show five and put the sixth down (R6.2), or show all six "
        "(R6.3). A later call must equal or beat the highest so far (R6.4). A caller plays "
        "no more that deal (R6.5)."
    ),
    N_(
        "The last round (R7). If the dealer called first the deal ends (R7.1); otherwise "
        "everyone after the first caller, up to the dealer, has one more turn (R7.2)."
    ),
    N_(
        "Settlement (R8). Only callers win; the highest call takes the pot that every "
        "player staked (R8.1, R8.2); ties split it, odd chips from the dealer's left "
        "(R8.3). With payout=scale losers pay by the winning combination (R8.4). A dead "
        "deal's pot carries over (R8.5)."
    ),
    N_(
        "What you see (R9). Everything public: seats, chips, pot, upcard, stock size, the "
        "whole discard pile, every draw from the pile, discard and call (R9.1); your own "
        "hand, but never another player's unshown cards (R9.2, R9.3)."
    ),
)
WIDTH = 76


#: Each combination's rule in RULES.md (R5.1 to R5.6, whatever the order of a rule set, R5.8).
COMBINATION_RULES: dict[Category, str] = {
    Category.FIVE_OF_A_KIND: "R5.1",
    Category.ROYAL_FLUSH: "R5.2",
    Category.STRAIGHT_FLUSH: "R5.3",
    Category.FOUR_TWO: "R5.4",
    Category.THREE_THREE: "R5.5",
    Category.PAIUTE: "R5.6",
}
#: What each combination is, in a few words.
COMBINATION_WHAT: dict[Category, str] = {
    Category.FIVE_OF_A_KIND: N_("five cards of one rank"),
    Category.ROYAL_FLUSH: N_("A K Q J T of one suit"),
    Category.STRAIGHT_FLUSH: N_("five in a row, one suit; 5-4-3-2-A low"),
    Category.FOUR_TWO: N_("four of one rank and a pair of another"),
    Category.THREE_THREE: N_("two threes of a kind"),
    Category.PAIUTE: N_("three pairs"),
}


def best_first(rules: RuleSet) -> list[Category]:
    """The six combinations in the order the engine ranks them under ``rules``, best first
    (:meth:`~paiute.combos.Category.order`: R5, and R5.8 where ``royal_high`` is on).

    >>> [category.title for category in best_first(RuleSet())][:3]
    ['Five of a Kind', 'Royal Flush', 'Straight Flush']
    >>> best_first(RuleSet(royal_high=True))[0].title
    'Royal Flush'
    """
    return sorted(Category, key=lambda category: category.order(rules.royal_high), reverse=True)


def combinations_list(rules: RuleSet, tr: Translator | None = None) -> str:
    """The combinations, best first, as a narrow list for a side panel (about 40 columns):
    each one's place, name and cards, then what it is, and the R5.7 note on the Paiute.

    >>> print(combinations_list(RuleSet()).splitlines()[1])
    1 Five of a Kind (5 cards)
    """
    tr = tr or translator()
    lines = [tr.gettext(N_("Winning combinations, best first (w):"))]
    for place, category in enumerate(best_first(rules), 1):
        cards = tr.ngettext("{n} card", "{n} cards", category.cards)
        lines.append(f"{tr.number(place)} {tr.category(category)} ({cards})")
        lines.append("  " + tr.gettext(COMBINATION_WHAT[category]))
    lines.append(_paiute_note(rules, tr).strip())
    return "\n".join(lines)


def _paiute_note(rules: RuleSet, tr: Translator) -> str:
    """When a Paiute may be called under ``rules`` (R5.7), indented for the table."""
    if rules.paiute_any_turn:
        return tr.gettext(N_("  A Paiute may be called on any turn (R5.7, option paiute_any_turn)."))
    return tr.gettext(N_("  A Paiute may be called only on your first turn (R5.7; any turn with 6+)."))


def _centred(text: str, width: int) -> str:
    """``text`` in the middle of ``width`` terminal columns (as ``format``'s ``^`` puts it)."""
    left = max(width - display_width(text), 0) // 2
    return pad(" " * left + text, width)


def combinations_table(rules: RuleSet, tr: Translator | None = None) -> str:
    """The six combinations of R5, best first, with the scale payout's units (R8.4)."""
    tr = tr or translator()
    _ = tr.gettext
    rows = [
        (COMBINATION_RULES[category], category, COMBINATION_WHAT[category]) for category in best_first(rules)
    ]
    # The column heads of the table, each a word of its own.
    rule_word, combination_word = _(N_("rule")), _(N_("combination"))
    cards_word, what_word = _(N_("cards")), _(N_("what it is"))
    # Columns as wide as English needs, wider where a language's words are longer, in the
    # columns a terminal draws (a Bengali vowel sign takes one).
    wide = (
        max(5, display_width(rule_word)),
        max(15, *(display_width(tr.category(category)) for _rule, category, _what in rows)),
        max(40, *(display_width(_(what)) for _rule, _category, what in rows)),
    )
    lines = [
        _(N_("COMBINATIONS (R5), best first; pays: units of the scale payout (R8.4)")),
        f"  {pad(rule_word, wide[0])} {pad(combination_word, wide[1])} {_centred(cards_word, 5)}  "
        f"{pad(what_word, wide[2])} " + _(N_("pays")),
    ]
    for rule, category, what in rows:
        lines.append(
            f"  {pad(rule, wide[0])} {pad(tr.category(category), wide[1])} "
            f"{_centred(tr.number(category.cards), 5)}  {pad(_(what), wide[2])} " + tr.number(category.units)
        )
    lines.append(
        _(
            N_(
                "  Ties break on the ranks named (R5.11: never on suits). Nothing else counts\n"
                "  (R5.9): no plain straights, flushes, full houses or fours on their own."
            )
        )
    )
    lines.append(_paiute_note(rules, tr))
    if rules.royal_high:
        lines.append(_(N_("  This match ranks the Royal Flush above Five of a Kind (R5.8).")))
    return "\n".join(lines)


# (wild rank, six cards, note): the cards stay in the canonical text people type (R1.4).
_EXAMPLES = (
    ("3", "3h 3s Ad Ac Ks Kh", N_("no five-card call; the wilds name aces")),
    ("3", "3c 3d 3h 3s 7d 2c", N_("four wilds and 7d")),
    ("3", "9h Th Jh Qh 3c 2s", N_("the wild names Kh, not two gaps")),
    ("9", "Ah 2h 3d 4h 5h 9c", N_("9c names 3h; 3d is put down")),
    ("3", "Jc Jd 7h 7s 4c 4d", N_("first turn only, R5.7")),
    ("3", "Ks Qs Js Ts 3d 8c", N_("Ks came from the pile: not put down")),
)


def examples_text(tr: Translator | None = None) -> str:
    """The worked examples of RULES.md, valued by the evaluator (six cards after a draw)."""
    tr = tr or translator()
    lines = [tr.gettext(N_("EXAMPLES (six cards after the draw; the best call)"))]
    for wild, cards, note in _EXAMPLES:
        held = parse_cards(cards)
        forbidden = held[0] if "taken" in note else None
        evaluator = Evaluator.for_rank(wild)
        best = evaluator.best(held, forbidden)
        lines.append(
            tr.gettext(
                N_("  wild rank {rank}: {cards}  ({note})"), rank=wild, cards=cards, note=tr.gettext(note)
            )
        )
        if best is None:
            lines.append(tr.gettext(N_("    -> no call")))
        else:
            lines.append(tr.gettext(N_("    -> {call}"), call=_call_text(best, evaluator, tr)))
    return "\n".join(lines)


def _call_text(call: Call, evaluator: Evaluator, tr: Translator) -> str:
    """A best call with its value in words of the reader's language and its cards in the
    canonical text, in the combination's order, each wild card with the card it stands for."""
    shown = format_arranged(evaluator.arrange(call.shown, call.value))
    if call.discard is None:
        return tr.gettext(N_("{value} (show {shown})"), value=call.value, shown=shown)
    return tr.gettext(
        N_("{value} (show {shown}, put down {card})"), value=call.value, shown=shown, card=str(call.discard)
    )


def rules_text(rules: RuleSet, tr: Translator | None = None) -> str:
    """The whole help: rules, combinations, this match's options and examples."""
    tr = tr or translator()
    _ = tr.gettext
    options = [_(N_("OPTIONS OF THIS MATCH (paiute rules --help lists them all)"))]
    for name, rule, value, _help in rules.describe():
        if isinstance(value, bool):
            shown = _(N_("on")) if value else _(N_("off"))
        else:
            shown = tr.number(value) if isinstance(value, int) else str(value)
        options.append(f"  {rule:<5} {name:<20} {shown}")
    rules_lines = [_(N_("PAIUTE: THE RULES AS THIS PROGRAM PLAYS THEM (IDs from RULES.md)"))]
    for paragraph in _RULES:
        rules_lines.append(textwrap.fill(_(paragraph), WIDTH, subsequent_indent="  "))
    return "\n\n".join(
        ["\n".join(rules_lines), combinations_table(rules, tr), "\n".join(options), examples_text(tr)]
    )
