"""``scripts/make_feed_model.py`` makes the ``guarded`` player's shipped feed models
(``src/paiute/players/data/feed.json``): from its seed it makes a shipped model again, value for
value; it writes where it is told (the working directory unless ``--write-shipped``), keeping a
file's other models, in the form the player reads; and it refuses what it cannot do in one
line. The whole file is made again by ``.ci/research``."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from helpers import load_script
from paiute import Deal, RuleSet, SeededChance
from paiute.players import make_player
from paiute.players.feed import COLUMNS, SHIPPED, read_models

pytest.importorskip("numpy")

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "make_feed_model.py"


def _script() -> ModuleType:
    return load_script(SCRIPT, "make_feed_model")


@pytest.mark.slow
def test_the_script_makes_the_shipped_two_seat_gamerules_model_again_from_its_seed() -> None:
    """The cheapest shipped model (4,000 deals at two seats, some 30 CPU-seconds): every field
    as shipped, the coefficients to the rounding of floating-point sums."""
    script = _script()
    made = script.make_model("gamerules", 2, workers=1)
    shipped = json.loads(SHIPPED.read_text(encoding="utf-8"))["models"]["gamerules"]["2"]
    assert script.differences(made, shipped) == []
    assert made["coefficients"] == pytest.approx(shipped["coefficients"], rel=1e-9, abs=1e-9)
    assert made["fitted"] == shipped["fitted"]


def test_differences_name_what_tells_two_models_apart() -> None:
    script = _script()
    entry = {"coefficients": [1.0, -2.0, 0.0], "fitted": {"deals": 4000, "cards": 10}}
    assert script.differences(entry, entry) == []
    nudged = {"coefficients": [1.0 + 1e-12, -2.0, 1e-12], "fitted": dict(entry["fitted"])}
    assert script.differences(entry, nudged) == []  # rounding, not a difference
    other = {"coefficients": [1.0, -2.1, 0.0], "fitted": {"deals": 4000, "cards": 11}}
    assert script.differences(entry, other) == ["cards: made 10, shipped 11", "coefficients differ"]
    assert script.differences(entry, None) == ["the shipped file has no such model"]


def test_the_rows_and_labels_are_one_a_card_greedy_weighed() -> None:
    script = _script()
    x, y = script.collect("pagat", 3, 4, 3, 1)
    assert x.shape == (y.size, len(COLUMNS))
    assert y.size > 0
    assert (x[:, 0] == 1.0).all()  # the bias
    again, labels = script.collect("pagat", 3, 4, 3, 1)
    assert (again == x).all()
    assert (labels == y).all()


def test_the_script_writes_models_the_guarded_player_reads_keeping_the_others(tmp_path: Path) -> None:
    script = _script()
    path = tmp_path / "feed.json"
    first = script.make_model("pagat", 4, deals=6, test=3, seed=3)
    script.write_models(path, {"pagat": {4: first}})
    second = script.make_model("gamerules", 3, deals=6, test=3, seed=3)
    script.write_models(path, {"gamerules": {3: second}})
    models = read_models(str(path))
    assert models["pagat"][4].coefficients == tuple(first["coefficients"])
    assert models["gamerules"][3].coefficients == tuple(second["coefficients"])
    assert json.loads(path.read_text())["models"]["pagat"]["4"]["fitted"]["command"] == (
        "scripts/make_feed_model.py --preset pagat --seats 4 --deals 6 --test 3 --seed 3 --ridge 1.0"
    )
    player = make_player(f"guarded:model={path},seed=1")
    for preset in ("pagat", "gamerules"):
        deal = Deal.new(RuleSet.from_preset(preset), 4, 0, SeededChance(2))
        while not deal.is_over:
            deal.apply(player.act(deal.observation(deal.current_seat)))


def test_the_script_writes_to_the_working_directory_unless_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shipped = SHIPPED.read_bytes()
    monkeypatch.chdir(tmp_path)
    argv = ["--preset", "pagat", "--seats", "2", "--deals", "4", "--test", "2", "--workers", "1"]
    assert _script().main(argv) == 0
    assert set(read_models(str(tmp_path / "feed.json"))) == {"pagat"}
    assert "wrote 1 model(s) to feed.json" in capsys.readouterr().out
    assert SHIPPED.read_bytes() == shipped


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--preset", "poker"], "--preset takes gamerules, pagat separated by commas, not 'poker'"),
        (["--seats", "6"], "--seats takes 2, 3, 4, 5 separated by commas, not '6'"),
        (["--deals", "1"], "--deals must be at least 2, not 1"),
        (["--workers", "0"], "--workers must be from 1 to 64, not 0"),
        (["--ridge", "nan"], "--ridge must be finite and not negative, not nan"),
        (["--check", "--write-shipped"], "not allowed with argument"),
    ],
)
def test_the_script_refuses_bad_arguments_in_one_line(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        _script().main(args)
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert said in error
    assert "Traceback" not in error


def test_the_script_never_overwrites_a_file_a_player_could_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.json"
    other.write_text('{"format": "something else"}')
    with pytest.raises(SystemExit):
        _script().main(["--seats", "2", "--deals", "4", "--out", str(other)])
    assert "is not a feed model file" in capsys.readouterr().err
    assert other.read_text() == '{"format": "something else"}'
