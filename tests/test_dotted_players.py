"""A researcher's agent by the dotted path of its factory (``mylab.agent.make:depth=3``):
made by ``make_player`` wherever a player spec goes, seated in a duplicate tournament beside
the built-in bots (in worker processes too: the spec travels, not the object), shown only its
seat's observation (R9), and every way it can fail refused in one line, exit status 2.

The agents are in tests/players/agents_for_tests.py; modules that fail to import are written
into a temporary folder. Both are put on the Python path (``PYTHONPATH`` for the command).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from paiute import RuleSet
from paiute.analysis.tournament import run_tournament
from paiute.cli.main import build_parser
from paiute.cli.play_command import build_config
from paiute.observation import Observation
from paiute.players import PlayerError, make_player, parse_spec

AGENTS = Path(__file__).resolve().parent / "players"
FAST = RuleSet(max_rebuilds=0)

#: Modules that cannot be imported, by name: their text.
BROKEN_MODULES = {
    "agent_needs_a_library": "import a_library_that_is_not_installed  # noqa\n",
    "agent_with_a_typo": "def make(:\n",
}

#: Every refusal: the spec, and what its one line says.
REFUSALS = [
    pytest.param(
        "no_such_agents_module.make",
        "cannot import module 'no_such_agents_module': No module named 'no_such_agents_module' "
        "(install it, or put its folder on the Python path: PYTHONPATH=FOLDER)",
        id="module-not-found",
    ),
    pytest.param(
        "agent_needs_a_library.make",
        "cannot import module 'agent_needs_a_library': No module named 'a_library_that_is_not_installed'",
        id="module-import-fails",
    ),
    pytest.param(
        "agent_with_a_typo.make",
        "cannot import module 'agent_with_a_typo': SyntaxError: ",
        id="module-syntax-error",
    ),
    pytest.param(
        "agents_for_tests.nothing_here",
        "module 'agents_for_tests' has no attribute 'nothing_here'",
        id="attribute-missing",
    ),
    pytest.param(
        "agents_for_tests.NOT_CALLABLE",
        "'agents_for_tests.NOT_CALLABLE' is a value of type int, not a callable that returns a player",
        id="not-callable",
    ),
    pytest.param(
        "agents_for_tests.broken",
        "the factory raised RuntimeError: no weights file at /nowhere/agent.pt",
        id="factory-raises",
    ),
    pytest.param(
        "agents_for_tests.not_a_player",
        "the factory returned a value of type int, not a player "
        "(an object with a name and an act(observation) method)",
        id="not-a-player",
    ),
    pytest.param(
        "agents_for_tests.seeded_random:depth=3",
        "player 'agents_for_tests.seeded_random' has no option 'depth' (options: loud, seed, weight)",
        id="unknown-option",
    ),
    pytest.param(
        "agents_for_tests.picky:depth=9",
        "bad options depth=9: depth must be at most 3, got 9",
        id="factory-type-error",
    ),
    pytest.param(
        "agents_for_tests.needs_depth",
        "bad options: missing a required argument: 'depth'",
        id="option-required",
    ),
    pytest.param(
        "agents_for_tests.seeded_random:seed=abc",
        "agents_for_tests.seeded_random option seed: expected a number, got 'abc'",
        id="option-value",
    ),
    pytest.param(
        "my-lab.agent.make",
        "'my-lab.agent.make' is not a dotted path MODULE.FACTORY of Python names",
        id="not-a-dotted-path",
    ),
]


@pytest.fixture
def broken_modules(tmp_path: Path) -> Path:
    folder = tmp_path / "modules"
    folder.mkdir()
    for name, text in BROKEN_MODULES.items():
        (folder / f"{name}.py").write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def on_path(monkeypatch: pytest.MonkeyPatch, broken_modules: Path) -> Iterator[None]:
    """The agents and the broken modules importable in this process, forgotten afterwards."""
    monkeypatch.syspath_prepend(str(AGENTS))
    monkeypatch.syspath_prepend(str(broken_modules))
    yield
    for name in (*BROKEN_MODULES, "agents_for_tests"):
        sys.modules.pop(name, None)


def paiute(*argv: str, path: Path) -> subprocess.CompletedProcess[str]:
    """Run the ``paiute`` command with the agents and ``path`` on ``PYTHONPATH``."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(AGENTS), str(path)]),
        "PAIUTE_LANG": "en",
        "COLUMNS": "200",
    }
    return subprocess.run(
        [sys.executable, "-m", "paiute", *argv],
        cwd=path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


# -- made like any bot -------------------------------------------------------------------------


def test_a_dotted_name_calls_the_factory_with_options_converted_as_a_bots(on_path: None) -> None:
    from agents_for_tests import SeededRandom

    player = make_player("agents_for_tests.seeded_random:seed=5,loud=on,weight=0.5")
    assert isinstance(player, SeededRandom)
    assert (player.seed, player.loud, player.weight) == (5, True, 0.5)
    plain = make_player("agents_for_tests.seeded_random")
    assert (plain.seed, plain.loud, plain.weight) == (None, False, 1.0)  # type: ignore[attr-defined]


def test_the_seed_a_tournament_gives_reaches_a_factory_that_takes_one(on_path: None) -> None:
    assert make_player("agents_for_tests.seeded_random", seed=9).seed == 9  # type: ignore[attr-defined]
    assert make_player("agents_for_tests.seeded_random:seed=2", seed=9).seed == 2  # type: ignore[attr-defined]


def test_a_class_is_a_factory_and_plays_as_its_bot_does() -> None:
    from paiute import Match, SeededChance
    from paiute.players import play_deal

    def actions(spec: str) -> list[str]:
        match = Match(FAST, ["a", "b"], chance=SeededChance(4))
        deal = play_deal(match, [make_player(spec), make_player("greedy", seed=1)])
        return [str(action) for action in deal.actions]

    assert actions("paiute.players.random_player.RandomPlayer:seed=3") == actions("random:seed=3")


def test_parse_spec_keeps_the_case_of_a_dotted_path_only() -> None:
    assert parse_spec("MyLab.Agent.make:seed=3") == ("MyLab.Agent.make", {"seed": "3"})
    assert parse_spec(" Greedy:seed=3 ") == ("greedy", {"seed": "3"})


def test_r9_a_dotted_agent_is_shown_only_its_own_seats_observation(on_path: None) -> None:
    import agents_for_tests

    agents_for_tests.SEEN.clear()
    run_tournament(["agents_for_tests.spy", "greedy"], deals=2, seed=3, workers=1, rules=FAST)
    assert agents_for_tests.SEEN
    for seat, observation in agents_for_tests.SEEN:
        assert type(observation) is Observation  # never the deal or its state
        assert observation.seat == seat == observation.current_seat
        assert observation.is_my_turn
        assert observation.legal_actions
        assert len(observation.hand) == observation.hand_sizes[seat]


def test_play_seats_a_dotted_agent_under_the_name_it_gives_itself(on_path: None) -> None:
    parser = build_parser()
    args = parser.parse_args(
        ["play", "--players", "3", "--bots", "agents_for_tests.seeded_random:seed=1,greedy"]
    )
    config = build_config(args)
    assert [(seat.name, seat.bot) for seat in config.seats[1:]] == [
        ("Seeded-random", "agents_for_tests.seeded_random:seed=1"),
        ("Greedy", "greedy"),
    ]


# -- refused in one line -----------------------------------------------------------------------


@pytest.mark.parametrize(("spec", "says"), REFUSALS)
def test_make_player_refuses_a_dotted_name_that_cannot_make_a_player(
    on_path: None, spec: str, says: str
) -> None:
    with pytest.raises(PlayerError) as refused:
        make_player(spec, seed=0)
    message = str(refused.value)
    assert says in message
    assert "\n" not in message


@pytest.mark.parametrize(("spec", "says"), REFUSALS)
def test_tournament_refuses_it_in_one_line_with_exit_status_2(
    broken_modules: Path, spec: str, says: str
) -> None:
    done = paiute("tournament", spec, "greedy", "--deals", "2", path=broken_modules)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("paiute tournament: error: ")
    assert says in lines[0]


def test_play_refuses_it_in_one_line_too(broken_modules: Path) -> None:
    done = paiute("play", "--plain", "--bots", "agents_for_tests.broken", path=broken_modules)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "paiute play: error: player 'agents_for_tests.broken': the factory raised RuntimeError: "
        "no weights file at /nowhere/agent.pt"
    ]


# -- in a duplicate tournament -----------------------------------------------------------------


def _standings(done: subprocess.CompletedProcess[str]) -> list[dict[str, object]]:
    assert done.returncode == 0, done.stderr
    return [
        {k: v for k, v in bot.items() if k not in ("bot", "spec")} for bot in json.loads(done.stdout)["bots"]
    ]


def test_an_agent_meets_greedy_on_duplicate_boards_in_worker_processes(tmp_path: Path) -> None:
    agent = "agents_for_tests.seeded_random:seed=5"
    common = ("greedy", "--deals", "2", "--seed", "11", "--workers", "2", "--json")
    mine = paiute("tournament", agent, *common, path=tmp_path)
    assert [bot["bot"] for bot in json.loads(mine.stdout)["bots"]] == [agent, "greedy"]
    # The factory wraps random with the seed it was given: the same boards, the same play.
    assert _standings(mine) == _standings(paiute("tournament", "random:seed=5", *common, path=tmp_path))
    table = paiute("tournament", agent, "greedy", "--deals", "2", "--seed", "11", path=tmp_path)
    assert table.returncode == 0, table.stderr
    assert agent in table.stdout  # the table names the agent by its spec, as any bot
    assert "greedy" in table.stdout


@pytest.mark.slow
def test_an_agent_plays_on_ray_workers_as_on_local_ones(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    agent = "agents_for_tests.seeded_random:seed=5"
    common = (agent, "greedy", "--deals", "2", "--seed", "11", "--workers", "1", "--json")
    local = paiute("tournament", *common, path=tmp_path)
    remote = paiute("tournament", *common, "--backend", "ray", path=tmp_path)
    assert "Ray: a private local instance" in remote.stderr
    assert _standings(remote) == _standings(local)
