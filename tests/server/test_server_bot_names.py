"""The web server seats only the bots of its closed list: a player spec with a dotted path
(``mylab.agent.make``, which ``paiute tournament`` imports and runs) is refused by every way a
table is made, and its module is never imported."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from paiute.errors import PaiuteError
from paiute.rules import RuleSet
from paiute.server.table import BOTS, TableConfig

#: A module that would leave a mark if the server ever imported it.
PLANTED = "planted_agent"


@pytest.fixture
def planted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``planted_agent.make`` importable, and the file its import would write."""
    mark = tmp_path / "imported"
    (tmp_path / f"{PLANTED}.py").write_text(
        f"from pathlib import Path\nPath({str(mark)!r}).write_text('imported')\n"
        "from paiute.players import make_player\n"
        "def make(**options):\n    return make_player('random')\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, PLANTED, raising=False)
    return mark


def test_the_api_refuses_a_dotted_bot_and_never_imports_it(client: TestClient, planted: Path) -> None:
    for bots in (f"{PLANTED}.make", f"{PLANTED}.make:seed=1", "paiute.players.random_player.RandomPlayer"):
        response = client.post("/api/tables", json={"player_name": "Ana", "seats": 2, "bots": bots})
        assert response.status_code == 422, bots
        assert response.json()["error"]["code"] == "bad_request"
    assert not planted.exists()
    assert PLANTED not in sys.modules


def test_a_table_config_refuses_a_dotted_bot_wherever_it_comes_from(planted: Path) -> None:
    # The service makes every table through TableConfig, and a stored table is read back
    # through it too (from_json): neither takes a bot off the list.
    with pytest.raises(PaiuteError, match=r"unknown bot 'planted_agent\.make'"):
        TableConfig("t", RuleSet(), 2, 100, bots=f"{PLANTED}.make")
    stored = TableConfig("t", RuleSet(), 2, 100, bots="greedy").to_json()
    with pytest.raises(PaiuteError, match="unknown bot"):
        TableConfig.from_json({**stored, "bots": f"{PLANTED}.make"})
    assert not planted.exists()


def test_the_server_bot_list_holds_no_dotted_name() -> None:
    assert [spec for spec in BOTS if "." in spec.partition(":")[0]] == []
