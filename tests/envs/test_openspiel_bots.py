"""OpenSpiel's bots on python_paiute (docs/openspiel.md, examples/openspiel_bots.py).

The example runs OpenSpiel's Python ISMCTSBot (with the restart_at shim) and MCTSBot through
evaluate_bots; the two facts the docs state about OpenSpiel itself are checked too, so that a
fixed OpenSpiel shows up here as a failing test: the Python ISMCTSBot has no restart_at (on
kuhn_poker as well), and the C++ MCTSBot cannot search a Python game (a segmentation fault).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

from paiute.envs.openspiel import PlayerBot
from paiute.players import make_player

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "openspiel_bots.py"


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("openspiel_bots_example", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_runs_both_python_bots_through_evaluate_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert example().main(["--deals", "3", "--simulations", "2", "--max-turns", "6"]) == 0
    out = capsys.readouterr().out
    assert "OpenSpiel ISMCTSBot" in out
    assert "OpenSpiel MCTSBot" in out
    assert "after 3 deals" in out


def test_the_shim_is_needed_on_openspiels_own_kuhn_poker() -> None:
    game = pyspiel.load_game("kuhn_poker")
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 4, random_state=rng)
    with pytest.raises(pyspiel.SpielError, match="RestartAt"):
        evaluate_bots(game.new_initial_state(), [bot, bot], rng)
    shimmed = example().RestartableISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 4, random_state=rng
    )
    assert sum(evaluate_bots(game.new_initial_state(), [shimmed, shimmed], rng)) == 0


def test_our_players_are_pyspiel_bots() -> None:
    import paiute.envs.openspiel  # noqa: F401 - registers python_paiute

    game = pyspiel.load_game("python_paiute(players=4)")
    bots = [PlayerBot(make_player(name, seed=seat)) for seat, name in enumerate(["greedy", "random"] * 2)]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(1))
    assert len(returns) == 4
    assert sum(returns) == 0


def test_the_cpp_mcts_bot_cannot_search_a_python_game() -> None:
    code = textwrap.dedent(
        """
        import resource, numpy as np, pyspiel
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        import paiute.envs.openspiel
        from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
        game = pyspiel.load_game("python_paiute(players=2,max_turns=10)")
        evaluator = pyspiel.RandomRolloutEvaluator(1, 1)
        bots = [pyspiel.MCTSBot(game, evaluator, 2.0, 5, 1000, False, 1, False) for _ in range(2)]
        evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
        print("searched")
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == -11, (result.returncode, result.stdout, result.stderr[-500:])
    assert "searched" not in result.stdout
