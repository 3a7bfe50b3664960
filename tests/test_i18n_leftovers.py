"""The last English leftovers of the terminal, translated: ``paiute simulate``'s fact names,
``paiute odds``' bot policy, errors nested inside record errors and the deal named by
:class:`paiute.chance.RecordedChance`. English text (``str()``, ``--json``) stays as it was.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from paiute import Match, RuleSet
from paiute.analysis.odds import POLICY
from paiute.analysis.simulate import fact_definitions
from paiute.chance import RecordedChance, SeededChance
from paiute.cli.main import main
from paiute.errors import RecordError
from paiute.i18n import translator
from paiute.players import make_player, play_deal
from paiute.record import Record


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_fact_labels_stay_english_and_are_translated_for_people() -> None:
    facts = {fact.key: fact for fact in fact_definitions(3, ("greedy", "random"))}
    assert facts["dead"].label == "dead deals (R4.7)"
    assert facts["edge.position.1"].label == "position 1 (dealer's left, plays first): chip edge"
    assert facts["win.position.3"].label == "position 3 (dealer): wins"
    assert facts["edge.position.2"].label == "position 2: chip edge"
    assert facts["edge.seat.1"].label == "seat 1 (random): chip edge"
    assert facts["win.seat.2"].label == "seat 2: wins"
    assert facts["won.four_two"].label == "Four/Two: wins the deal"
    so, bn = translator("so"), translator("bn")
    assert so.message(facts["dead"].title) == "qaybaha dhintay (R4.7)"
    assert so.message(facts["won.four_two"].title) == "Afar/Laba: wuxuu ku guuleystaa qaybta"
    assert bn.message(facts["win.position.3"].title) == "অবস্থান ৩ (বাঁটুনিদার): জয়"
    assert translator("en").message(facts["edge.seat.1"].title) == facts["edge.seat.1"].label


def test_simulate_names_its_facts_in_somali_r4_7(
    capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # one line per row, whatever the terminal
    plain = ("simulate", "--deals", "4", "--players", "3", "--workers", "1")
    compare = (*plain, "--compare", "royal_high")
    out = _run(capsys, "--lang", "so", *plain)
    assert "qaybaha dhintay (R4.7)" in out
    assert "dhererka qaybta (ficillo): dhexe [10%, 90%]" in out
    assert "deal length (actions): median [10%, 90%]" in _run(capsys, *plain)
    out = _run(capsys, "--lang", "so", *compare)
    for label in (
        "dhawaaqyada qaybtii (R6)",
        "Afar/Laba: lagu dhawaaqay",
        "meesha 3 (qaybiye): guulo",
        "kursiga 0 (random): faa'iidada qadaadiicda",
    ):
        assert label in out, label
    english = _run(capsys, *compare)
    assert "dead deals (R4.7)" in english
    assert "Four/Two: called" in english
    assert "position 3 (dealer): wins" in english
    # --json holds the English labels in every language.
    assert _run(capsys, "--lang", "so", *compare, "--json") == _run(capsys, *compare, "--json")


def test_odds_shows_its_bot_policy_in_somali(capsys: pytest.CaptureFixture[str]) -> None:
    command = ("odds", "--wild", "jokers", "--turns", "1", "--samples", "20", "--quiet")

    def words(text: str) -> str:  # the caption wraps to the table's width
        return " ".join(text.replace("│", " ").split())

    out = words(_run(capsys, "--lang", "so", *command))
    assert "siyaasad: " + translator("so").gettext(POLICY) in out
    assert out.count("ciyaaryahanku wuxuu ka qaadaa kaydka") == 1
    assert "policy: " + POLICY in words(_run(capsys, *command))
    within = json.loads(_run(capsys, "--lang", "so", *command, "--json"))["within_turns"]
    assert {column["policy"] for column in within} == {POLICY}  # --json: English


def _record_json(bots: str, seed: int) -> dict[str, Any]:
    match = Match(RuleSet.from_preset("pagat"), 3, chance=SeededChance(seed))
    play_deal(match, [make_player(bots, seed=seat) for seat in range(3)])
    data: dict[str, Any] = json.loads(Record.from_match(match).dumps())
    return data


def _refusal(data: dict[str, Any], change: Callable[[dict[str, Any]], object]) -> RecordError:
    changed = json.loads(json.dumps(data))
    change(changed)
    with pytest.raises(RecordError) as caught:
        Record.loads(json.dumps(changed)).replay()
    return caught.value


def test_errors_nested_in_record_errors_are_translated_whole_r2_1() -> None:
    data = _record_json("greedy", 5)
    error = _refusal(data, lambda d: d.__setitem__("players", ["solo"]))
    assert (
        str(error)
        == "players: R2.1 1 players: these rules allow 2 to 5 (raise max_players, at most 8, for more)"
    )
    assert translator("ro").explain(error) == (
        "players: R2.1 1 jucători: aceste reguli permit între 2 și 5 (măriți max_players, cel mult 8, pentru mai mulți)"
    )
    error = _refusal(data, lambda d: d["deals"][0]["actions"].__setitem__(0, "fly"))
    assert str(error) == (
        "deal 1, move 1: unknown action 'fly' (expected draw stock, draw discard, discard C, call C or call)"
    )
    assert translator("bn").explain(error).startswith("দান ১, চাল ১: অজানা চাল 'fly'")


def test_recorded_chance_names_the_deal_in_the_readers_language_r4_6() -> None:
    data = _record_json("random", 5)
    assert data["deals"][0]["rebuilds"], "the seeded deal rebuilds its stock"
    error = _refusal(data, lambda d: d["deals"][0].__setitem__("rebuilds", []))
    assert (
        str(error) == "deal 1: rebuild 1: the record has no stock order for this rebuild (R4.6; 0 recorded)"
    )
    assert translator("ro").explain(error) == (
        "mâna 1: refacerea 1: înregistrarea nu are ordinea talonului pentru această refacere (R4.6; înregistrate: 0)"
    )
    error = _refusal(data, lambda d: d["deals"][0]["rebuilds"][0].pop())
    assert str(error).startswith("deal 1: rebuild 1 is not the cards R4.6 moves (")
    assert translator("bn").explain(error).startswith("দান ১: পুনর্গঠন ১ সেই তাসগুলো নয় যা R4.6 সরায় (")
    # Without a deal number: the message alone; an internal free prefix stays English.
    with pytest.raises(RecordError) as caught:
        RecordedChance(()).below(3)
    assert str(caught.value) == "a record's chance is written down, not drawn"
    assert translator("so").explain(caught.value) == "nasiibka diiwaanka waa qoran yahay, lama soo saaro"
    with pytest.raises(RecordError) as caught:
        RecordedChance((), where="batch deal 4: ").below(3)
    assert str(caught.value) == "batch deal 4: a record's chance is written down, not drawn"
