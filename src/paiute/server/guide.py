"""How to play: the facts of the players' rules page (``/rules``), taken from the engine.

The page's sentences are web strings (``rules.*`` in static/js/strings.js); everything it says
about the rule data comes from here, so the page never holds a second copy of a rule: the
combinations in R5's order (best first), each with an example holding that the evaluator
values, the wild cards of an example upcard (R3), the default numbers the sentences quote, and
each preset's options that differ from the defaults.

>>> facts = how_to_play()
>>> [combination["name"] for combination in facts["combinations"]][:3]
['five_of_a_kind', 'royal_flush', 'straight_flush']
>>> facts["combinations"][3]["value"]
{'name': 'four_two', 'ranks': ['5', '2']}
"""

from __future__ import annotations

from typing import Any

from paiute.cards import Card, parse_cards
from paiute.combos import Category
from paiute.evaluator import Evaluator
from paiute.rules import HAND_SIZE, OPTIONS, PRESETS, RuleSet

__all__ = ["EXAMPLE_UPCARD", "how_to_play"]

#: The upcard of the page's examples (R2.6): every card of its rank is wild (R3.1).
EXAMPLE_UPCARD = "3d"

#: A holding that shows each combination. The evaluator gives its value (and the card each
#: wild card stands for); :func:`how_to_play` refuses a holding whose best is another category.
_EXAMPLES = {
    Category.FIVE_OF_A_KIND: "7c 7d 7h 7s 3h",
    Category.ROYAL_FLUSH: "As Ks Qs Js Ts",
    Category.STRAIGHT_FLUSH: "5h 6h 7h 8h 9h",
    Category.FOUR_TWO: "5c 5d 5h 5s 2c 2d",
    Category.THREE_THREE: "Kc Kd Kh 8c 8d 8s",
    Category.PAIUTE: "Jc Jd 7h 7s 4c 4d",
}


def how_to_play(rules: RuleSet | None = None) -> dict[str, Any]:
    """The rules page's data for ``rules`` (default: the default rule set, preset ``pagat``)."""
    rules = rules or RuleSet()
    upcard = Card.parse(EXAMPLE_UPCARD)
    wild = rules.wild_cards(upcard)
    evaluator = Evaluator(wild, royal_high=rules.royal_high)
    best_first = sorted(Category, key=lambda category: category.order(rules.royal_high), reverse=True)
    default_order = sorted(Category, key=Category.order, reverse=True)
    combinations = []
    for category in best_first:
        shown = parse_cards(_EXAMPLES[category])
        value = evaluator.value(shown)
        if value is None or value.category is not category:
            raise AssertionError(f"the example {_EXAMPLES[category]!r} is not a {category.title}")
        placed = evaluator.arrange(shown, value)
        combinations.append(
            {
                "name": category.value,
                # R5's table lists the combinations best first under the default order, R5.1 to R5.6.
                "rule": f"R5.{default_order.index(category) + 1}",
                "cards": category.cards,
                "shown": [str(item.card) for item in placed],
                "wild": [str(item.card) for item in placed if item.wild],
                "named": [{"card": str(item.card), "as": str(item.named)} for item in placed if item.renamed],
                "value": value.to_json(),
                "units": category.units,  # the scale payout's (R8.4)
            }
        )
    rule_of = {option.name: option.rule for option in OPTIONS}
    return {
        "upcard": EXAMPLE_UPCARD,
        "wild_cards": [str(card) for card in sorted(wild)],
        "hand": HAND_SIZE,
        "stake": rules.stake,
        "max_rebuilds": rules.max_rebuilds,
        "unit": rules.unit,
        "combinations": combinations,
        "presets": [
            {
                "name": name,
                "default": name == rules.preset,
                "options": [
                    {"name": option, "value": value, "rule": rule_of[option]}
                    for option, value in differences.items()
                ],
            }
            for name, differences in PRESETS.items()
        ],
    }
