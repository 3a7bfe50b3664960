"""``scripts/make_learned_model.py`` makes the ``learned`` player's shipped network
(``src/paiute/players/data/learned.npz``) from its seed: its recipe is the one docs/learned.md
gives for the shipped network, the trainer it runs makes the same network again from the same
seed (shown here on a small run), and its comparison tells two networks apart. The whole
network is trained again and compared with the shipped file by ``.ci/research``
(``--check``)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from helpers import load_script

pytest.importorskip("pettingzoo")
pytest.importorskip("rich")

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "make_learned_model.py"
#: A few deals of everything (the trainer's --quick), from the recipe's seed.
SMALL = ("--quick", "--methods", "dmc", "--threshold", "0.1", "--seed", "2")


def _script() -> ModuleType:
    return load_script(SCRIPT, "make_learned_model")


def test_the_recipe_is_the_documented_run_of_the_shipped_network() -> None:
    text = (ROOT / "docs" / "learned.md").read_text(encoding="utf-8")
    found = re.search(
        r"# run E: the shipped network.*?\n(OMP_NUM_THREADS=1 python examples/train_learned.py .*?)\n#",
        text,
        re.S,
    )
    assert found is not None, "docs/learned.md no longer shows run D's command"
    words = shlex.split(found.group(1).replace("\\\n", " "))
    documented = words[words.index("examples/train_learned.py") + 1 :]
    for option in ("--out", "--curve"):  # where it writes, not what it makes
        at = documented.index(option)
        del documented[at : at + 2]
    assert tuple(documented) == _script().RECIPE


def test_the_trainer_makes_the_same_network_again_from_the_same_seed(tmp_path: Path) -> None:
    script = _script()
    first, second = tmp_path / "first.npz", tmp_path / "second.npz"
    script.train(first, SMALL)
    script.train(second, SMALL)
    assert script.differences(first, second) == []
    with np.load(first) as one, np.load(second) as two:
        assert all(np.array_equal(one[name], two[name]) for name in one.files)
    other = tmp_path / "other.npz"
    script.train(other, (*SMALL[:-1], "3"))
    assert script.differences(first, other) != []


def test_differences_name_the_arrays_that_differ(tmp_path: Path) -> None:
    script = _script()
    shipped = script.SHIPPED
    assert script.differences(shipped, shipped) == []
    with np.load(shipped) as data:
        arrays = {name: data[name] for name in data.files}
    nudged = dict(arrays, w1=arrays["w1"] + np.float32(1e-7))
    np.savez(tmp_path / "nudged.npz", **nudged)
    assert script.differences(tmp_path / "nudged.npz", shipped) == []  # rounding, not a difference
    changed = dict(arrays, b2=arrays["b2"] + np.float32(0.5), meta_method=np.array("pg"))
    np.savez(tmp_path / "changed.npz", **changed)
    assert script.differences(tmp_path / "changed.npz", shipped) == [
        "b2: differs by up to 0.5",
        "meta_method: pg, shipped dmc",
    ]
