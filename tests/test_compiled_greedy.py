"""The compiled ``greedy`` (paiute.compiled.greedy) against the Python player, decision for
decision: the differential test.

* **Lock step**: deals dealt by the compiled core and, from the same deck, by the engine, every
  action chosen by the compiled greedy on the core's arrays and applied to both; at every
  decision the compiled action is one of :meth:`GreedyPlayer.choices` (the Python greedy's
  action, or one of its equally scored discards where it breaks a tie at random), and where
  it ties, both tie the same cards. Both presets, 2 to 8 players, random option mixes.
* **R9**: the compiled greedy decides the same from a seat's observation alone (a
  :class:`~paiute.compiled.search.Position` template whose hidden places are filled with the
  unseen cards at random, two different ways) as the Python greedy does from that
  observation.
* Playouts by the compiled greedy (``policy="greedy"``) are repeatable, do not depend on the
  unseen cards (R9) nor on the number of threads; ``pimc`` takes the option.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from paiute import Action, Card, Deal, Phase, RuleSet, SeededChance
from paiute.actions import ActionKind
from paiute.compiled import search, warm
from paiute.compiled.greedy import GREEDY_WORK, W_TIED, W_TIES, greedy_move, greedy_tables
from paiute.compiled.rules import apply_action_one, legal_actions_one, new_deal_one
from paiute.compiled.search import Position
from paiute.compiled.state import LANE, OVER, RUNNING, WILD_UNIT, new_batch, rule_params
from paiute.compiled.tables import tables
from paiute.players import evaluate, make_player
from paiute.players.base import PlayerError
from paiute.players.evaluate import estimate_actions
from paiute.players.greedy import GreedyPlayer


@pytest.fixture(scope="module", autouse=True)
def _kernels() -> None:
    assert warm.prepare(block=True), warm.error()


def random_rules(rng: random.Random, players: int) -> RuleSet:
    """A preset with a random mix of the options greedy's arithmetic reads."""
    options: dict[str, Any] = {
        "max_players": 8 if players > 5 else 5,
        "jokers": rng.random() < 0.25,
        "wild_colour": rng.choice(["any", "opposite"]),
        "payout": rng.choice(["pot", "scale"]),
        "royal_high": rng.random() < 0.3,
        "max_rebuilds": rng.choice([0, 1, 3]),
        "ties": rng.choice(["split", "first_call"]),
    }
    if rng.random() < 0.4:
        options["open_discard"] = rng.random() < 0.5
        options["upcard_under_stock"] = rng.random() < 0.5
        options["reshuffle_keeps_top"] = rng.random() < 0.5
        options["paiute_any_turn"] = rng.random() < 0.5
    return RuleSet.from_preset(rng.choice(["pagat", "gamerules"]), **options)


class CoreChance:
    """The engine's chance in lock step with the core: each rebuild (R4.6) takes the order the
    core logged for it (the core applies each action first)."""

    def __init__(self, batch: Any) -> None:
        self.batch = batch
        self.at = 0

    def shuffle(self, cards: list[Card]) -> None:
        log = self.batch.rebuild_log
        size = int(log[self.at])
        order = [Card(int(card)) for card in log[self.at + 1 : self.at + 1 + size]]
        assert Counter(order) == Counter(cards)
        self.at += 1 + size
        cards[:] = order


def tied_discards(work: Any) -> set[Action]:
    return {Action.discard(Card(int(card))) for card in work[W_TIES : W_TIES + work[W_TIED]]}


def lock_step(rules: RuleSet, players: int, seed: int, tally: Counter[str]) -> None:
    """One deal played by the compiled greedy in the core and replayed in the engine, checked
    against the Python greedy at every decision (see the module)."""
    params = rule_params(rules, players, record=True)
    batch = new_batch(1, 4096, 4096)
    core_tables = tables(rules.royal_high)
    g = greedy_tables(rules)
    new_deal_one(batch, params, 0, np.uint64(seed), 0)
    deal = Deal(
        rules,
        players,
        int(batch.dealer[0]),
        [Card(int(card)) for card in batch.deck[0, : rules.pack_size]],
        CoreChance(batch),
    )
    oracle = GreedyPlayer(seed=seed)
    work = np.zeros(GREEDY_WORK, dtype=np.int64)
    legal = np.zeros(16, dtype=np.int64)
    while batch.status[0] == RUNNING:
        seat = int(batch.seat[0])
        observation = deal.observation(seat)
        count = legal_actions_one(batch, core_tables, params, 0, legal)
        assert legal[:count].tolist() == [action.id for action in observation.legal_actions]
        action = Action.from_id(greedy_move(batch, core_tables, g, params, 0, work))
        if count > 1:
            choices = oracle.choices(observation)
            tally["decisions"] += 1
            assert action in choices, (seed, str(observation), action, choices)
            if (
                action.kind is ActionKind.DISCARD
                and observation.phase is Phase.DISCARD
                and not observation.calls
            ):
                tally["ties"] += len(choices) > 1  # the same cards tie for the best keep
                assert tied_discards(work) == set(choices), (seed, str(observation))
        apply_action_one(batch, core_tables, params, 0, action.id)
        deal.apply(action)
    if batch.status[0] == OVER:
        assert deal.outcome is not None
        assert set(deal.outcome.winners) == {seat for seat in range(players) if batch.winners[0] >> seat & 1}
    tally["deals"] += 1


@pytest.mark.parametrize("block", range(4))
def test_compiled_greedy_plays_as_greedy_in_lock_step(block: int) -> None:
    """Every decision of greedy-vs-greedy play, both presets, 2 to 8 players, option mixes."""
    tally: Counter[str] = Counter()
    for index in range(block * 12, block * 12 + 12):
        rng = random.Random(index)
        players = 2 + index % 7
        lock_step(random_rules(rng, players), players, 20261202 + index, tally)
    assert tally["deals"] == 12
    assert tally["decisions"] > 12 * 10
    assert tally["ties"] > 0  # the tie-breaking path is exercised


def _filled(position: Position, rng: np.random.Generator) -> Any:
    """The position's template with its hidden places filled by the unseen cards at random
    (the stock's hidden part, then each seat's hidden cards): one determinization."""
    template = position.template
    unseen = [int(card) for card in position.unseen]
    rng.shuffle(unseen)
    wild = int(template.wild[0])
    size = int(template.stock_len[0])
    for card in unseen[: position.hidden_stock]:
        template.stock[0, size] = card
        size += 1
    template.stock_len[0] = size
    rest = unseen[position.hidden_stock :]
    for seat in range(8):
        need = int(position.need[seat])
        if not need:
            continue
        cards = sorted([int(c) for c in template.hands[0, seat, : template.hand_len[0, seat]]] + rest[:need])
        rest = rest[need:]
        key = bits = 0
        for j, card in enumerate(cards):
            template.hands[0, seat, j] = card
            if (wild >> card) & 1:
                key += WILD_UNIT
            else:
                key += 1 << (3 * (card >> 2))
                bits |= 1 << ((card >> 2) + LANE * (card & 3))
        template.hand_len[0, seat] = len(cards)
        template.hand_key[0, seat] = key
        template.hand_bits[0, seat] = bits
    template.rng[0, :] = rng.integers(1, 1 << 62, size=4, dtype=np.int64).astype(np.uint64)
    return template


@pytest.mark.parametrize("seed", range(6))
def test_r9_compiled_greedy_decides_from_the_observation(seed: int) -> None:
    rng = random.Random(seed)
    players = 2 + seed % 7
    rules = random_rules(rng, players)
    deal = Deal.new(rules, players, seed % players, SeededChance(seed))
    bots = [GreedyPlayer(seed=seed * 10 + seat) for seat in range(players)]
    oracle = GreedyPlayer(seed=0)
    work = np.zeros(GREEDY_WORK, dtype=np.int64)
    decisions = 0
    while not deal.is_over and decisions < 200:
        observation = deal.observation(deal.current_seat)
        if len(observation.legal_actions) > 1:
            choices = set(oracle.choices(observation))
            seen = []
            for fill in range(2):  # two deals of the unseen cards: the same decision
                position = Position.from_observation(observation)
                template = _filled(position, np.random.default_rng(seed * 7919 + decisions * 2 + fill))
                action = Action.from_id(
                    greedy_move(template, position.tables, position.gtables, position.params, 0, work)
                )
                assert action in choices, (str(observation), action, choices)
                seen.append(tied_discards(work) if len(choices) > 1 else {action})
            assert seen[0] == seen[1]
            decisions += 1
        deal.apply(bots[deal.current_seat].act(observation))
    assert decisions > 5


def _position(seed: int, steps: int) -> Deal:
    """A deal ``steps`` greedy actions in (fewer if it would end), at a seat with a choice."""
    deal = Deal.new(RuleSet(), 4, 0, SeededChance(seed), balances=[0] * 4, pot=4)
    bots = [GreedyPlayer(seed=seat) for seat in range(4)]
    for _ in range(steps):
        following = deal.copy()
        following.apply(bots[deal.current_seat].act(deal.observation(deal.current_seat)))
        if following.is_over:
            break
        deal = following
    while len(deal.legal_actions()) < 2:
        deal.apply(deal.legal_actions()[0])
    return deal


def test_r9_greedy_playouts_do_not_depend_on_unseen_cards_nor_threads() -> None:
    deal = _position(3, 9)
    seat = deal.current_seat
    observation = deal.observation(seat)
    other = Deal.from_observation(observation, SeededChance(99))  # the unseen cards re-dealt
    first = estimate_actions(observation, playouts=40, seed=4, core="compiled", policy="greedy")
    again = estimate_actions(other.observation(seat), playouts=40, seed=4, core="compiled", policy="greedy")
    threads = estimate_actions(observation, playouts=40, seed=4, core="compiled", policy="greedy", workers=2)
    assert first.values == again.values == threads.values
    plain = estimate_actions(observation, playouts=40, seed=4, core="compiled")
    assert plain.values != first.values  # the default policy is still the playout policy
    assert all(e.samples == 40 and e.low <= e.mean <= e.high for e in first.estimates)


def test_policy_is_checked_and_pimc_takes_it() -> None:
    assert tuple(search.POLICIES) == evaluate.POLICIES  # one list of names, two layers
    deal = _position(2, 6)
    observation = deal.observation(deal.current_seat)
    with pytest.raises(PlayerError, match="policy"):
        estimate_actions(observation, playouts=2, core="compiled", policy="random")
    with pytest.raises(PlayerError, match="python core"):
        estimate_actions(observation, playouts=2, core="python", policy="playout")
    with pytest.raises(PlayerError, match="policy"):
        make_player("pimc:policy=smart")
    first = make_player("pimc:iterations=30,seed=3,policy=greedy").act(observation)
    assert first == make_player("pimc:iterations=30,seed=3,policy=greedy").act(observation)
    assert first in observation.legal_actions
