"""Where a server's deals come from (paiute.server.deals): the secure source (R10.1) unless a
test server is given ``--insecure-deal-seed``, which is hidden, loud, refused off loopback and
keeps the fair-deal proofs (R10.2)."""

from __future__ import annotations

import random
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from server_helpers import ServerProcess, create, fast_limits, fast_settings, play_http, start, state

from paiute.cli.main import main
from paiute.fairness import verify_record
from paiute.record import Record
from paiute.server import create_app
from paiute.server.deals import SECURE_DEALS, SeededDeals


def shuffled(client: TestClient, table_id: str) -> list[str]:
    proof = client.get(f"/api/tables/{table_id}/deals/1/proof")
    assert proof.status_code == 200, proof.text
    cards: list[str] = proof.json()["shuffled"]
    return cards


def test_r10_1_without_the_option_a_server_deals_from_the_secure_source(db_url: str) -> None:
    with TestClient(create_app(db_url, limits=fast_limits(), settings=fast_settings())) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        assert service.deals is SECURE_DEALS
        assert client.get("/api/health").json()["deals"] == "secure"
        table_id, token = create(client, seats=2, bots="greedy")
        start(client, table_id, token)
        assert service.runtimes[table_id].table.deals is SECURE_DEALS


def test_r10_2_seeded_deals_repeat_and_their_proofs_verify(db_url: str) -> None:
    settings = fast_settings(insecure_deal_seed=5)
    with TestClient(create_app(db_url, limits=fast_limits(), settings=settings)) as client:
        assert client.get("/api/health").json()["deals"] == "seeded"
        orders = []
        for _ in range(2):
            table_id, token = create(client, seats=2, bots="greedy", max_deals=1)
            start(client, table_id, token)
            play_http(client, table_id, {0: token}, random.Random(0))
            orders.append(shuffled(client, table_id))
            record = Record.from_json(client.get(f"/api/tables/{table_id}/record").json())
            assert all(
                not problems for _, problems in verify_record(record)
            )  # the commitments hold over seeded orders (R10.2)
        assert orders[0] == orders[1]
        assert orders[0] == [str(card) for card in SeededDeals(5).order(False, 1)]
        # Another seed, another deal.
        assert SeededDeals(6).order(False, 1) != SeededDeals(5).order(False, 1)


def test_the_option_is_left_out_of_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    assert "insecure" not in capsys.readouterr().out


@pytest.mark.parametrize(
    "flags",
    [
        ["--host", "0.0.0.0"],
        ["--host", "127.0.0.1", "--trusted-proxy", "127.0.0.1"],
    ],
    ids=["not-loopback", "behind-a-proxy"],
)
def test_the_seed_is_refused_unless_on_loopback_with_no_proxy(
    flags: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = ["serve", *flags, "--port", "0", "--data-dir", str(tmp_path), "--insecure-deal-seed", "1"]
    assert main(words) == 2
    err = capsys.readouterr().err
    assert "--insecure-deal-seed is for tests only" in err
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_a_seeded_server_says_so_loudly(tmp_path: Path) -> None:
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'db.sqlite'}", tmp_path / "server.log", extra=["--insecure-deal-seed", "3"]
    )
    try:
        assert httpx.get(server.url + "/api/health", timeout=10).json()["deals"] == "seeded"
    finally:
        server.stop()
    log = (tmp_path / "server.log").read_text()
    assert "WARNING: INSECURE DEALS (--insecure-deal-seed 3)" in log
    assert "knows every hand" in log


def test_a_seeded_server_deals_the_same_pack_at_every_table(db_url: str) -> None:
    settings = fast_settings(insecure_deal_seed=9)
    with TestClient(create_app(db_url, limits=fast_limits(), settings=settings)) as client:
        dealers = set()
        for _ in range(3):
            table_id, token = create(client, seats=3, bots="greedy")
            start(client, table_id, token)
            dealers.add(state(client, table_id)["dealer"])
        assert dealers == {SeededDeals(9).dealer(3)}
