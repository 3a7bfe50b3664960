"""Fair-deal proofs (R10.2) and ``paiute verify``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiute.cards import pack, parse_cards
from paiute.chance import SeededChance
from paiute.fairness import (
    CommittingChance,
    DealCommitment,
    RebuildCommitment,
    commitment_hash,
    cut,
    secure_order,
    uncut,
    verify_deal,
    verify_record,
)
from paiute.match import Match
from paiute.players import make_player
from paiute.players.play import play_turn
from paiute.record import DealRecord, Record, save
from paiute.rules import RuleSet
from test_cli import run


def committed_match(seed: int, deals: int = 2, players: int = 2, **options: object) -> Match:
    """Deals played the way a server plays them: commit, cut, deal, commit each rebuild."""
    rules = RuleSet.from_preset("pagat", **options)
    match = Match(rules, players, chance=SeededChance(seed), dealer=0)
    bots = [make_player("random", seed=seed + seat) for seat in range(players)]
    chance = SeededChance(seed)
    for _ in range(deals):
        order = pack(rules.jokers)
        chance.shuffle(order)
        commitment = DealCommitment.make(order)
        position = chance.below(len(order))
        rebuilds = CommittingChance(chance)
        deal = match.start_deal(cut(order, position), chance=rebuilds)
        while not deal.is_over:
            play_turn(deal, bots, match.apply)  # type: ignore[arg-type]
        match.commitments[-1] = DealCommitment(
            commitment.sha256, commitment.salt, position, tuple(rebuilds.rebuilds)
        ).to_json()
    return match


def test_r10_2_commitment_hash_is_sha256_of_the_documented_text() -> None:
    # The same text the web page hashes with crypto.subtle (docs/web-protocol.md).
    digest = commitment_hash(parse_cards("As Kd 7h 2c Jk1"), "salt")
    assert digest == "4ee13ed50f20c9d4de077aa4100cc62dd2eea0be7b3c2b6e320ea87a0de51dc1"


@given(st.integers(0, 2**32), st.integers(0, 53))
def test_r2_4_uncut_inverts_cut(seed: int, position: int) -> None:
    order = pack(True)
    SeededChance(seed).shuffle(order)
    assert uncut(cut(order, position), position) == tuple(order)


def test_r2_4_cut_outside_the_pack_is_refused() -> None:
    with pytest.raises(ValueError, match=r"R2\.4"):
        cut(pack(False), 52)


def test_r10_1_secure_order_is_a_whole_pack() -> None:
    for jokers in (False, True):
        order = secure_order(jokers)
        assert sorted(order) == pack(jokers)
    assert secure_order(False) != secure_order(False)  # 1 in 52! to fail


def test_r10_2_committed_deals_verify() -> None:
    record = Record.from_match(committed_match(7, deals=3))
    record.replay()
    assert verify_record(record) == [(0, []), (1, []), (2, [])]


def test_r10_2_rebuilt_stocks_are_committed_and_verify() -> None:
    # Two players drawing at random exhaust the stock: find a deal with a rebuild (R4.6).
    for seed in range(40):
        record = Record.from_match(committed_match(seed, deals=1, max_rebuilds=3))
        deal = record.deals[0]
        if deal.rebuilds:
            assert deal.commitment is not None
            assert len(deal.commitment["rebuilds"]) == len(deal.rebuilds)  # type: ignore[arg-type]
            assert verify_deal(deal) == []
            tampered = list(deal.rebuilds[0])
            tampered[0], tampered[-1] = tampered[-1], tampered[0]
            rebuilds = (tuple(tampered), *deal.rebuilds[1:])
            bad = DealRecord(deal.dealer, deal.deck, rebuilds, deal.actions, deal.commitment)
            # The first rebuild, counted from 1 as people count it.
            assert verify_deal(bad) == ["R10.2 rebuild 1 does not match its commitment"]
            return
    pytest.fail("no deal with a rebuild in 40 seeds")


def test_r10_2_a_changed_deck_cut_or_salt_fails() -> None:
    deal = Record.from_match(committed_match(3, deals=1)).deals[0]
    assert deal.commitment is not None
    swapped = (deal.deck[1], deal.deck[0], *deal.deck[2:])
    problem = "R10.2 the deck dealt is not the committed order cut at the recorded point"
    assert verify_deal(DealRecord(deal.dealer, swapped, deal.rebuilds, deal.actions, deal.commitment)) == [
        problem
    ]
    position = int(deal.commitment["cut"])  # type: ignore[call-overload]
    other_cut = {**deal.commitment, "cut": (position + 1) % len(deal.deck)}
    assert verify_deal(DealRecord(deal.dealer, deal.deck, deal.rebuilds, deal.actions, other_cut)) == [
        problem
    ]
    other_salt = {**deal.commitment, "salt": "0" * 32}
    assert verify_deal(DealRecord(deal.dealer, deal.deck, deal.rebuilds, deal.actions, other_salt)) == [
        problem
    ]
    assert verify_deal(DealRecord(deal.dealer, deal.deck)) == ["R10.2 the deal has no commitment"]


def test_r10_2_public_commitment_never_shows_a_salt_or_an_order() -> None:
    commitment = DealCommitment.make(secure_order(False))
    rebuilt = RebuildCommitment.make(secure_order(False)[:20])
    with_rebuild = DealCommitment(commitment.sha256, commitment.salt, 7, (rebuilt,))
    # Only the hashes: no salt, no cut, no card (a card's text may occur inside a hex digest,
    # so the check is on the structure, not on substrings).
    assert with_rebuild.public_json() == {
        "sha256": commitment.sha256,
        "rebuilds": [{"sha256": rebuilt.sha256}],
    }
    assert all(
        len(h) == 64 and set(h) <= set("0123456789abcdef") for h in (commitment.sha256, rebuilt.sha256)
    )


def test_verify_command_accepts_a_committed_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "match.json"
    save(Record.from_match(committed_match(11)), path)
    status, out, _ = run(capsys, "verify", str(path))
    assert status == 0
    assert out.startswith("deal 1: verified (the committed order cut at ")  # people count from 1
    status, out, _ = run(capsys, "verify", str(path), "--json")
    assert status == 0
    assert json.loads(out) == {
        "ok": True,
        "proofs": True,
        "deals": [{"deal": i, "verified": True, "problems": []} for i in range(2)],
    }


def test_verify_command_refuses_a_tampered_or_uncommitted_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(Record.from_match(committed_match(12)).dumps())
    data["deals"][1]["commitment"]["salt"] = "f" * 32
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    status, out, _ = run(capsys, "verify", str(path))
    assert status == 1
    assert "deal 1: verified" in out  # people count from 1; --json keeps the index
    assert "deal 2: NOT verified" in out
    del data["deals"][0]["commitment"]
    status, out, _ = run(capsys, "verify", "-", "--json", stdin=json.dumps(data))
    assert status == 1
    assert json.loads(out)["deals"][0]["problems"] == ["R10.2 the deal has no commitment"]


def test_verify_command_reports_a_malformed_record_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "verify", "-", stdin='{"format": "nope"}')
    assert status == 1
    assert out.startswith("invalid record: ")
    assert len(out.strip().splitlines()) == 1
    assert "Traceback" not in out + err
