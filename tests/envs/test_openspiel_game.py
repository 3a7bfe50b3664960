"""The game ``python_paiute`` for OpenSpiel (paiute.envs.openspiel).

OpenSpiel's own API test (``random_sim_test`` with serialization), loading with parameters,
the chance model (R2.5-R2.7, R4.6, R4.7), observers that show a seat only what R9 lets it see,
returns equal to the engine's settlement (R8), ``resample_from_infostate`` for the Python
ISMCTS bot, and the recorded playthrough (scripts/make_openspiel_playthrough.py).
"""

from __future__ import annotations

import importlib.util
import pickle
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import make_observation

from paiute import (
    DRAW_STOCK,
    IllegalActionError,
    Match,
    PaiuteError,
    RecordedChance,
    RulesError,
    RuleSet,
    pack,
)
from paiute.envs.encoding import ObservationEncoder
from paiute.envs.openspiel import (
    PARAMETERS,
    SHORT_NAME,
    GameSettings,
    PaiuteState,
    game_parameters,
    load_game,
)
from paiute.players import make_player

ROOT = Path(__file__).resolve().parents[2]
PLAYTHROUGH = ROOT / "tests" / "data" / "openspiel" / "python_paiute.txt"
SCRIPT = ROOT / "scripts" / "make_openspiel_playthrough.py"
CHANCE = pyspiel.PlayerId.CHANCE


def play(state: PaiuteState, rng: np.random.RandomState, steps: int = 10_000) -> PaiuteState:
    """Random play (chance outcomes by their probabilities) for at most ``steps`` actions."""
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def draw_from_stock(state: PaiuteState, rng: np.random.RandomState, rebuilds: int) -> PaiuteState:
    """Seats always draw from the stock (and discard at random) until ``rebuilds`` stock
    rebuilds (R4.6) have happened and one more turn has begun."""
    while not state.is_terminal():
        deal = state.table.deal
        if state.is_chance_node() or deal is None:
            play(state, rng, steps=1)
        elif deal.phase.value == "discard":
            state.apply_action(int(rng.choice([a for a in state.legal_actions() if 2 <= a < 56])))
        elif deal.rebuilds >= rebuilds:
            break
        else:
            state.apply_action(DRAW_STOCK.id)
    return state


def deal_in(state: PaiuteState, rng: np.random.RandomState) -> PaiuteState:
    """Play the dealing chance nodes (R2.5-R2.7)."""
    while state.table.deal is None:
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


# -- OpenSpiel's API test ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "game_string",
    [
        "python_paiute",
        "python_paiute(players=3,preset=gamerules)",
        "python_paiute(players=4,jokers=True,payout=scale,ties=first_call,max_rebuilds=0)",
        "python_paiute(players=2,max_turns=6)",
    ],
)
def test_random_sim_test_with_serialization(game_string: str) -> None:
    game = pyspiel.load_game(game_string)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_serialize_and_deserialize_replay_the_chance_outcomes() -> None:
    game = pyspiel.load_game("python_paiute(players=3)")
    state = play(game.new_initial_state(), np.random.RandomState(4), steps=60)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert state2.history() == state.history()
    assert str(state2) == str(state)
    assert state2.table.deal.stock_cards() == state.table.deal.stock_cards()
    for player in range(3):
        assert state2.information_state_string(player) == state.information_state_string(player)
    unpickled = pickle.loads(pickle.dumps(state))
    assert str(unpickled) == str(state)
    assert unpickled.history() == state.history()
    again = pickle.loads(pickle.dumps(state.table))  # a table pickles as its history
    assert again.actions == state.table.actions
    assert str(again) == str(state.table)


# -- parameters --------------------------------------------------------------------------------


def test_load_by_string_with_parameters() -> None:
    game = pyspiel.load_game("python_paiute(players=3,preset=gamerules,royal_high=True,stake=5)")
    settings = game.settings
    assert settings.rules == RuleSet.from_preset("gamerules", royal_high=True, stake=5)
    assert settings.players == 3
    assert game.num_players() == 3
    assert settings.dealer == 2  # dealer=-1: the last seat, so seat 0 plays first (R4.1)
    assert (game.min_utility(), game.max_utility()) == (-5.0, 10.0)  # R8.2


def test_preset_options_are_on_off_or_preset() -> None:
    gamerules = pyspiel.load_game("python_paiute(preset=gamerules)").settings.rules
    assert gamerules.open_discard
    assert gamerules.paiute_any_turn
    changed = pyspiel.load_game("python_paiute(preset=gamerules,open_discard=off)").settings.rules
    assert changed == RuleSet.from_preset("gamerules", open_discard=False)
    assert pyspiel.load_game("python_paiute(paiute_any_turn=on)").settings.rules.paiute_any_turn


def test_game_parameters_load_any_rule_set() -> None:
    rules = RuleSet.from_preset("gamerules", open_discard=False, payout="scale", unit=10)
    game = load_game(rules, 4, max_turns=50)
    assert game.settings == GameSettings(rules, 4, 3, 50)
    assert game_parameters() == {}
    assert set(PARAMETERS) == set(game.get_type().parameter_specification)


@pytest.mark.parametrize(
    ("parameters", "message"),
    [
        ({"players": 9}, "R2.1"),
        ({"players": 7, "max_players": 6}, "R2.1"),  # max_players follows players unless given
        ({"open_discard": "maybe"}, "preset, on or off"),
        ({"preset": "nope"}, "unknown preset"),
        ({"dealer": 2}, "R2.2"),
        ({"max_turns": 0}, "max_turns"),
        ({"payout": "double"}, "payout"),
    ],
)
def test_bad_parameters_are_refused_with_the_rule(parameters: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        pyspiel.load_game(SHORT_NAME, parameters)


def test_r2_1_eight_players_need_no_max_players() -> None:
    game = pyspiel.load_game("python_paiute(players=8)")
    assert game.num_players() == 8
    assert game.rules.max_players == 8
    assert "max_players" not in game_parameters(game.rules, 8)


def test_a_parameter_of_the_wrong_type_is_refused() -> None:
    with pytest.raises(pyspiel.SpielError, match="open_discard"):
        pyspiel.load_game("python_paiute(open_discard=true)")  # on/off: see the docs


# -- the chance model ----------------------------------------------------------------------------


def test_chance_outcomes_are_uniform_and_sum_to_one() -> None:
    game = pyspiel.load_game("python_paiute(players=2,max_rebuilds=1)")
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    seen = 0
    while not state.is_terminal() and seen < 300:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            probabilities = [p for _, p in outcomes]
            assert sum(probabilities) == pytest.approx(1.0)
            assert max(probabilities) == pytest.approx(min(probabilities))
            assert [a for a, _ in outcomes] == state.legal_actions()
            seen += 1
        play(state, rng, steps=1)
    assert seen > 20


def test_r2_5_one_chance_node_per_dealt_card() -> None:
    game = pyspiel.load_game("python_paiute(players=3,preset=gamerules)")
    state = game.new_initial_state()
    nodes = 0
    while state.is_chance_node():
        assert len(state.chance_outcomes()) == 52 - nodes
        state.apply_action(state.legal_actions()[nodes % 3])
        nodes += 1
    assert nodes == 5 * 3 + 1 + 1  # the hands, the upcard (R2.6), the open discard (R2.7)
    deal = state.table.deal
    assert deal.initial_discard is not None
    assert deal.upcard is not None
    assert state.current_player() == 0


def test_r2_6_the_upcard_under_the_stock_is_never_chosen_before_the_last_draw() -> None:
    state = deal_in(pyspiel.load_game("python_paiute").new_initial_state(), np.random.RandomState(1))
    upcard = state.table.deal.upcard
    state.apply_action(DRAW_STOCK.id)
    assert state.is_chance_node()
    assert upcard not in [card for card, _ in state.chance_outcomes()]
    assert len(state.chance_outcomes()) == state.table.deal.stock_size - 1


def test_r4_6_after_a_rebuild_the_card_comes_from_the_old_pile() -> None:
    game = pyspiel.load_game("python_paiute(players=2,max_rebuilds=2)")
    rng = np.random.RandomState(5)
    state = deal_in(game.new_initial_state(), rng)
    while True:
        deal = state.table.deal
        if state.current_player() >= 0 and deal.phase.value == "draw" and deal.stock_size == 0:
            break
        if state.current_player() >= 0 and deal.phase.value == "draw":
            state.apply_action(DRAW_STOCK.id)  # run the stock down
        else:
            play(state, rng, steps=1)
        assert not state.is_terminal()
    pile = state.table.deal.discard_pile
    state.apply_action(DRAW_STOCK.id)
    assert state.is_chance_node()
    assert sorted(card for card, _ in state.chance_outcomes()) == sorted(pile[:-1])  # R4.6
    play(state, rng, steps=1)
    assert state.table.deal.rebuilds == 1


def test_r4_7_the_dead_draw_and_max_turns_end_with_zero_returns() -> None:
    game = pyspiel.load_game("python_paiute(players=2,max_rebuilds=0)")
    rng = np.random.RandomState(2)
    state = deal_in(game.new_initial_state(), rng)
    while not state.is_terminal():  # only stock draws and discards: the stock runs out
        if state.is_chance_node():
            play(state, rng, steps=1)
        elif state.table.deal.phase.value == "draw":
            state.apply_action(DRAW_STOCK.id)
        else:
            discards = [a for a in state.legal_actions() if 2 <= a < 56]
            state.apply_action(int(rng.choice(discards)))
    assert state.table.deal.outcome.dead
    assert state.returns() == [0.0, 0.0]

    game = pyspiel.load_game("python_paiute(players=2,max_turns=3)")
    state = deal_in(game.new_initial_state(), rng)
    actions = 0
    while not state.is_terminal():  # the discard pile's top card when it can: R4.7 never ends it
        if state.is_chance_node():
            play(state, rng, steps=1)
            continue
        legal = state.legal_actions()
        state.apply_action(1 if 1 in legal else 0 if 0 in legal else next(a for a in legal if a < 56))
        actions += 1
    assert state.table.truncated
    assert state.table.turns == 3
    assert state.returns() == [0.0, 0.0]
    assert actions <= game.max_game_length()
    assert "max_turns" in state.information_state_string(0)


def test_an_illegal_action_is_refused_with_its_rule_and_changes_nothing() -> None:
    game = pyspiel.load_game("python_paiute")
    state = deal_in(game.new_initial_state(), np.random.RandomState(3))
    before = (state.history(), str(state), state.information_state_string(0))
    with pytest.raises(IllegalActionError, match=r"R4\.2"):
        state.apply_action(1)  # draw discard from an empty pile
    with pytest.raises(IllegalActionError, match=r"R4\.2"):
        state.apply_action(2)  # discard before drawing
    assert (state.history(), str(state), state.information_state_string(0)) == before
    state.apply_action(DRAW_STOCK.id)
    with pytest.raises(PaiuteError, match="not a card chance may place"):
        state.apply_action(int(state.table.deal.upcard))  # R2.6: drawn last


# -- returns ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game_string", "seed"),
    [
        ("python_paiute(players=2)", 13),
        ("python_paiute(players=3,payout=scale,preset=gamerules)", 5),
        ("python_paiute(players=4,ties=first_call,stake=3)", 11),
    ],
)
def test_returns_equal_the_engines_settlement(game_string: str, seed: int) -> None:
    game = pyspiel.load_game(game_string)
    rules, players = game.settings.rules, game.settings.players
    rng = np.random.RandomState(seed)
    for _ in range(3):
        state = play(game.new_initial_state(), rng)
        deal = state.table.deal
        match = Match(rules, players, balances=[0] * players, dealer=game.settings.dealer)
        again = match.start_deal(deal.deck, chance=RecordedChance(deal.rebuild_orders))
        for action in deal.actions:
            match.apply(action)
        assert again.outcome == deal.outcome
        # R8.5: a dead deal keeps the stakes in the pot; the game returns them (all 0).
        refund = rules.stake if deal.outcome.dead and rules.payout == "pot" else 0
        assert state.returns() == [float(chips + refund) for chips in match.balances]
        assert sum(state.returns()) == 0.0


# -- observers (R9) --------------------------------------------------------------------------


def test_observer_tensor_sizes() -> None:
    for players in (2, 5):
        game = pyspiel.load_game(f"python_paiute(players={players},jokers=True)")
        size = ObservationEncoder(game.settings.rules, players).size
        assert game.observation_tensor_size() == size
        assert game.information_state_tensor_size() == size + 2 * 54
        state = play(game.new_initial_state(), np.random.RandomState(players), steps=40)
        assert len(state.observation_tensor(1)) == size
        assert len(state.information_state_tensor(0)) == size + 108
    public = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    )
    assert public.tensor is None
    assert "spectator" in public.string_from(state, 0)


def test_r9_views_do_not_depend_on_the_cards_a_seat_cannot_see() -> None:
    game = pyspiel.load_game("python_paiute(players=3,max_rebuilds=1)")
    rng = np.random.RandomState(8)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    positions = [play(game.new_initial_state(), rng, steps=steps) for steps in (3, 30, 90, 200)]
    positions.append(draw_from_stock(game.new_initial_state(), rng, rebuilds=1))  # R4.6
    for state in positions:
        for player in range(3):
            views = _views(state, player)
            for _ in range(4):
                other = state.resample_from_infostate(player, sampler)
                assert _views(other, player) == views
                changed += other.history() != state.history()
    assert changed > 30  # the hidden cards really were dealt anew


def _views(state: PaiuteState, player: int) -> tuple[object, ...]:
    return (
        state.information_state_string(player),
        state.observation_string(player),
        tuple(state.information_state_tensor(player)),
        tuple(state.observation_tensor(player)),
        state.legal_actions() if state.current_player() == player else None,
    )


def test_resample_from_infostate_is_a_consistent_state() -> None:
    game = pyspiel.load_game("python_paiute(players=2,preset=gamerules)")
    state = play(game.new_initial_state(), np.random.RandomState(6), steps=70)
    player = 1
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    deal = state.table.deal
    for _ in range(5):
        other = state.resample_from_infostate(player, sampler)
        sample = other.table.deal
        assert sample.hand(player) == deal.hand(player)
        assert sample.discard_pile == deal.discard_pile
        assert sample.actions == deal.actions  # every seat action is public
        assert sorted(sample.stock_cards() + sample.hand(0)) == sorted(deal.stock_cards() + deal.hand(0))
        replayed = game.new_initial_state()
        for action in other.history():
            replayed.apply_action(action)
        assert str(replayed) == str(other)
        assert sorted(sample.deck) == pack(False)


# -- bots ------------------------------------------------------------------------------------


def test_openspiel_python_ismcts_bot_plays() -> None:
    game = pyspiel.load_game("python_paiute(players=2,max_turns=4)")  # short rollouts
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=8, random_state=rng)
    state = deal_in(game.new_initial_state(), rng)
    moves = 0
    while not state.is_terminal() and moves < 6:
        if state.is_chance_node():
            play(state, rng, steps=1)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves == 6 or state.is_terminal()


def test_our_bots_play_the_game_from_their_observation() -> None:
    game = pyspiel.load_game("python_paiute(players=3)")
    rng = np.random.RandomState(1)
    bot = make_player("greedy", seed=1)
    state = deal_in(game.new_initial_state(), rng)
    while not state.is_terminal():
        if state.is_chance_node():
            play(state, rng, steps=1)
        else:
            action = bot.act(state.observation(state.current_player()))
            state.apply_action(action.id)
    assert sum(state.returns()) == 0.0


# -- the playthrough ---------------------------------------------------------------------------


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_openspiel_playthrough", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_playthrough_regenerates_line_by_line() -> None:
    assert PLAYTHROUGH.is_file(), "run scripts/make_openspiel_playthrough.py --write"
    original = PLAYTHROUGH.read_text(encoding="utf-8")
    again = _script().replay(original)
    original_lines, again_lines = original.splitlines(), again.splitlines()
    for number, (old, new) in enumerate(zip(original_lines, again_lines, strict=False), start=1):
        assert old == new, f"{PLAYTHROUGH.name}:{number} differs; regenerate if intended"
    assert len(original_lines) == len(again_lines)
