"""The hint button's endpoint: only the seat to move, with its own token; the same figures as
paiute.analysis.hint from that seat's observation (R9). Alone with bots nothing at the table
changes; between people hints are off unless the creator allowed them, and then the table is
told who asked, never the hint or a card (hint_policy)."""

from __future__ import annotations

import dataclasses
import random
import re
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import POLLS, auth, create, fast_settings, join, receive, start, state

from paiute import pack
from paiute.analysis.hint import hint
from paiute.rules import RuleSet
from paiute.server import create_app
from paiute.server.errors import ServiceError
from paiute.server.hints import HintSettings, _Hints, _seed
from paiute.server.table import Draft, LiveTable
from paiute.server.tabledata import HintPolicy, TableConfig, hint_policy

CARD_TEXT = re.compile(r"^(?:[2-9TJQKA][cdhs]|Jk[12])$")
QUICK = HintSettings(playouts=2, draw_playouts=2, budget_ms=None, processes=False)


def _client(db_url: str, hints: HintSettings = QUICK, **settings: Any) -> TestClient:
    app = create_app(db_url, settings=fast_settings(**settings))
    app.state.hint_settings = hints
    return TestClient(app)


def _two_people(client: TestClient, *, hints: bool = False) -> tuple[str, dict[int, str]]:
    """Two people (no bots) in their first deal; ``hints``: the creator allowed hints."""
    table_id, token = create(client, seats=2, bots=None, hints=hints)
    _, other = join(client, table_id, "Bo")
    tokens = {0: token, 1: other}
    start(client, table_id, token)
    cutter = state(client, table_id, token)["cutter"]
    response = client.post(
        f"/api/tables/{table_id}/cut", json={"id": "cut", "position": 7}, headers=auth(tokens[cutter])
    )
    assert response.status_code == 200, response.text
    return table_id, tokens


def _alone(client: TestClient) -> tuple[str, str]:
    """One person and a bot, on the person's move (its id and the person's token)."""
    table_id, token = create(client, seats=2, bots="greedy", max_deals=20)
    start(client, table_id, token)
    for _ in range(POLLS):
        view = state(client, table_id, token)
        if view["status"] == "cut" and view["cutter"] == view["you"]:
            body = {"id": f"cut-{view['version']}", "position": 7}
            client.post(f"/api/tables/{table_id}/cut", json=body, headers=auth(token))
        elif view["status"] == "playing" and view["observation"]["legal_actions"]:
            return table_id, token
        else:
            time.sleep(0.001)
    raise AssertionError("the person's move never came")


def _hint(client: TestClient, table_id: str, token: str | None) -> Any:
    return client.post(f"/api/tables/{table_id}/hint", headers=auth(token))


def _events(client: TestClient, table_id: str, token: str | None, kind: str) -> list[dict[str, Any]]:
    response = client.get(f"/api/tables/{table_id}/events", headers=auth(token))
    assert response.status_code == 200, response.text
    return [event for event in response.json()["events"] if event["type"] == kind]


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, int]]:
    """The keys of the hints whose work started (a spy on the hint pool)."""
    keys: list[tuple[str, int, int]] = []
    start_work = _Hints.start

    def spy(self: _Hints, key: tuple[str, int, int], *args: Any) -> Any:
        keys.append(key)
        return start_work(self, key, *args)

    monkeypatch.setattr(_Hints, "start", spy)
    return keys


def test_the_seat_to_move_gets_the_hint_of_its_observation(db_url: str) -> None:
    with _client(db_url) as client:
        table_id, token = _alone(client)
        view = state(client, table_id, token)
        mover = view["you"]
        tokens = {mover: token}
        version = view["version"]
        response = _hint(client, table_id, tokens[mover])
        assert response.status_code == 200, response.text
        data = response.json()
        assert data["format"] == "paiute-hint/2"
        assert (data["table"], data["version"], data["seat"]) == (table_id, version, mover)
        # The same figures as paiute.analysis.hint from the seat's observation, with the same seed.
        table = client.app.state.service.runtimes[table_id].table  # type: ignore[attr-defined]
        seed = _seed(table.deal_number - 1, len(table.deal.actions))  # the position's, as the review's
        expected = hint(table.deal.observation(mover), playouts=2, draw_playouts=2, seed=seed).to_json()
        assert {k: v for k, v in data.items() if k not in ("table", "version", "deal")} == expected
        mine = state(client, table_id, tokens[mover])["observation"]
        assert data["recommended"] in mine["legal_actions"]
        # Alone with a bot: asking changed nothing at the table, nobody was told, and the same
        # moment gives the same answer.
        assert state(client, table_id)["version"] == version
        assert _hint(client, table_id, tokens[mover]).json() == data
        assert _events(client, table_id, None, "hint") == []


def test_a_hint_names_no_card_outside_the_seats_view(db_url: str) -> None:
    with _client(db_url) as client:
        table_id, token = _alone(client)
        drawn = client.post(
            f"/api/tables/{table_id}/actions", json={"id": "a", "action": "draw stock"}, headers=auth(token)
        )
        assert drawn.status_code == 200, drawn.text
        mine = state(client, table_id, token)["observation"]
        data = _hint(client, table_id, token).json()
        visible = set(mine["hand"]) | set(mine["discard_pile"])
        visible |= {mine["stock_bottom"]} if mine["stock_bottom"] else set()
        unseen = {str(card) for card in pack()} - visible

        def walk(item: object, key: str = "") -> None:
            if isinstance(item, dict):
                for k, v in item.items():
                    walk(v, k)
            elif isinstance(item, list):
                for v in item:
                    walk(v, key)
            elif isinstance(item, str):
                for word in item.split():
                    if CARD_TEXT.match(word):
                        assert word in (unseen if key == "out_cards" else set(mine["hand"])), (key, word)

        walk(data)


def test_a_hint_is_refused_to_another_seat_a_spectator_and_a_stranger(db_url: str) -> None:
    with _client(db_url) as client:
        table_id, tokens = _two_people(client, hints=True)
        mover = state(client, table_id)["observation"]["current_seat"]
        waiting = _hint(client, table_id, tokens[1 - mover])
        assert waiting.status_code == 409
        assert waiting.json()["error"]["code"] == "not_your_turn"
        spectator = _hint(client, table_id, None)
        assert spectator.status_code == 401
        other_table, other_token = create(client)
        stranger = _hint(client, table_id, other_token)
        assert stranger.status_code == 401
        assert stranger.json()["error"]["code"] == "bad_token"
        assert _hint(client, other_table, other_token).status_code == 409  # not dealt yet


def test_hints_are_rate_limited_like_other_requests(db_url: str) -> None:
    with _client(db_url, http_rate=0.001, http_burst=3) as client:
        table_id, token = create(client, seats=2)
        statuses = [_hint(client, table_id, token).status_code for _ in range(6)]
        assert statuses.count(429) >= 3


def test_the_estimate_runs_off_the_event_loop(db_url: str, monkeypatch: Any) -> None:
    import threading

    import paiute.server.hints as hints_module

    threads: list[str] = []
    real = hints_module.hint

    def spy(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(hints_module, "hint", spy)
    with _client(db_url) as client:
        table_id, token = _alone(client)
        assert _hint(client, table_id, token).status_code == 200
    assert len(threads) == 1
    assert threads[0].startswith("paiute-hint")  # its own pool, never the loop's thread


def test_worker_processes_give_the_same_figures(db_url: str) -> None:
    with _client(
        db_url, hints=HintSettings(playouts=2, draw_playouts=2, budget_ms=None, workers=1)
    ) as client:
        try:
            table_id, token = _alone(client)
            view = state(client, table_id, token)
            mover = view["you"]
            response = _hint(client, table_id, token)
            assert response.status_code == 200, response.text
            table = client.app.state.service.runtimes[table_id].table  # type: ignore[attr-defined]
            expected = hint(
                table.deal.observation(mover),
                playouts=2,
                draw_playouts=2,
                seed=_seed(table.deal_number - 1, len(table.deal.actions)),
            ).to_json()
            assert {
                k: v for k, v in response.json().items() if k not in ("table", "version", "deal")
            } == expected
        finally:
            client.app.state.hints.pool.shutdown()  # type: ignore[attr-defined]


def test_the_hint_gives_the_figures_of_the_deals_review_at_that_moment(db_url: str) -> None:
    # One estimate, one seeding: the hint asked at a move, and the review of the finished deal
    # at that decision, give the same figures for the move played and the hint's move.
    from server_helpers import hurried

    from paiute.server.reviews import Reviewer

    with _client(db_url) as client:
        app = client.app
        app.state.reviewer = Reviewer(app, playouts=2)  # type: ignore[attr-defined]  # QUICK's playouts
        table_id, token = create(client, seats=2, bots="greedy", max_deals=1)
        start(client, table_id, token)
        rng = random.Random(3)
        told: dict[int, tuple[str, dict[str, Any]]] = {}
        for _ in range(POLLS):
            view = state(client, table_id, token)
            if view["status"] == "closed":
                break
            if view["status"] == "cut" and view["cutter"] == view["you"]:
                body = {"id": f"cut-{view['version']}", "position": 7}
                client.post(f"/api/tables/{table_id}/cut", json=body, headers=auth(token))
            elif view["status"] == "playing" and view["observation"]["legal_actions"]:
                table = client.app.state.service.runtimes[table_id].table  # type: ignore[attr-defined]
                moves = len(table.deal.actions)
                answer = _hint(client, table_id, token).json()
                action = hurried(rng, view["observation"]["legal_actions"])
                told[moves] = (action, answer)
                body = {"id": f"a-{view['version']}", "action": action, "expected_version": view["version"]}
                client.post(f"/api/tables/{table_id}/actions", json=body, headers=auth(token))
            else:
                time.sleep(0.001)
        assert view["status"] == "closed"
        for _ in range(POLLS):
            review = client.get(f"/api/tables/{table_id}/deals/1/review").json()
            if review["status"] == "ready":
                break
            time.sleep(0.01)
        assert review["status"] == "ready"
        mine = [d for d in review["decisions"] if d["seat"] == view["you"]]
        assert mine
        for decision in mine:
            played, answer = told[decision["action"]]
            assert played == decision["played"]
            nets = {row["action"]: row["net"] for row in answer["actions"]}
            assert answer["recommended"] == decision["best"]
            assert (nets[decision["played"]], nets[decision["best"]]) == (
                decision["net_played"],
                decision["net_best"],
            )


# -- the policy: hints between people ------------------------------------------------------


def test_two_people_are_refused_a_hint_before_any_work(
    db_url: str, started: list[tuple[str, int, int]]
) -> None:
    with _client(db_url) as client:
        table_id, tokens = _two_people(client)
        view = state(client, table_id)
        mover = view["observation"]["current_seat"]
        response = _hint(client, table_id, tokens[mover])
        assert response.status_code == 403, response.text
        assert response.json()["error"] == {
            "code": "hints_off",
            "message": "hints are off at a table of people: the table's creator did not allow them",
            "rule": None,
        }
        assert started == []  # no estimate started
        assert state(client, table_id)["version"] == view["version"]  # nothing stored
        assert _events(client, table_id, None, "hint") == []
        # The seat that is not to move hears the same: hints are off for the table first.
        assert _hint(client, table_id, tokens[1 - mover]).json()["error"]["code"] == "hints_off"


def test_allowed_hints_are_told_to_the_other_seat_and_spectators_without_a_card(
    db_url: str, started: list[tuple[str, int, int]]
) -> None:
    with _client(db_url) as client:
        table_id, tokens = _two_people(client, hints=True)
        view = state(client, table_id)
        mover, version = view["observation"]["current_seat"], view["version"]
        other = tokens[1 - mover]
        with client.websocket_connect(f"/ws/tables/{table_id}") as spectator:
            spectator.send_json({"type": "hello", "token": None, "since": None})
            assert receive(spectator)["type"] == "welcome"
            response = _hint(client, table_id, tokens[mover])
            assert response.status_code == 200, response.text
            update = receive(spectator)
        data = response.json()
        assert data["version"] == version + 1  # the announcement's version
        assert started == [(table_id, version, mover)]  # the hint of the moment it was asked at
        name = view["names"][mover]
        told = {
            "version": version + 1,
            "type": "hint",
            "seat": mover,
            "deal": 1,
            "text": f"{name} asked for a hint",
        }
        assert update["event"] == told
        assert _events(client, table_id, other, "hint") == [told]
        assert _events(client, table_id, None, "hint") == [told]
        # No card, no move, no figure of the hint in what the others are told (R9).
        assert not re.search(r"\b(?:[2-9TJQKA][cdhs]|Jk[12])\b", str(told))
        assert data["recommended"] not in str(told)
        # Asked again at the same moment: the same hint, and the table is not told twice.
        assert _hint(client, table_id, tokens[mover]).json() == data
        assert len(_events(client, table_id, None, "hint")) == 1
        assert len(started) == 1


def test_one_person_with_bots_gets_hints_and_nobody_is_told(db_url: str) -> None:
    with _client(db_url) as client:
        table_id, token = _alone(client)
        view = state(client, table_id, token)
        assert view["hints"] == {"on": True, "reason": "alone"}
        assert _hint(client, table_id, token).status_code == 200
        assert state(client, table_id)["version"] == view["version"]
        assert _events(client, table_id, None, "hint") == []


def test_a_second_person_sitting_down_turns_hints_off(db_url: str) -> None:
    with _client(db_url) as client:
        table_id, ana = create(client, seats=3, bots="greedy")
        assert state(client, table_id, ana)["hints"] == {"on": True, "reason": "alone"}
        _, bo = join(client, table_id, "Bo")
        for token in (ana, bo, None):  # each seat and a spectator
            assert state(client, table_id, token)["hints"] == {"on": False, "reason": "people"}
        start(client, table_id, ana)
        for _ in range(POLLS):
            views = {token: state(client, table_id, token) for token in (ana, bo)}
            movers = [
                token
                for token, seen in views.items()
                if seen["status"] == "playing" and seen["observation"]["legal_actions"]
            ]
            if movers:
                refused = _hint(client, table_id, movers[0])
                assert refused.status_code == 403, refused.text
                assert refused.json()["error"]["code"] == "hints_off"
                return
            cutter = next(
                (t for t, seen in views.items() if seen["status"] == "cut" and seen["cutter"] == seen["you"]),
                None,
            )
            if cutter is not None:
                body = {"id": "cut", "position": 3}
                client.post(f"/api/tables/{table_id}/cut", json=body, headers=auth(cutter))
            time.sleep(0.001)
        raise AssertionError("nobody's move came")


def test_the_people_are_counted_live_a_seat_the_bot_plays_is_not_a_person(db_url: str) -> None:
    with _client(db_url) as client:
        table_id, tokens = _two_people(client)
        off = {"on": False, "reason": "people"}
        assert state(client, table_id, tokens[0])["hints"] == off
        left = client.post(f"/api/tables/{table_id}/leave", json={"id": "bye"}, headers=auth(tokens[1]))
        assert left.status_code == 200, left.text
        # The bot plays Bo's seat: Ana is the one person playing, and hints are hers again...
        assert state(client, table_id, tokens[0])["hints"] == {"on": True, "reason": "alone"}
        # ...but Bo, who left, still counts himself: no private hint by stepping out.
        assert state(client, table_id, tokens[1])["hints"] == off
        back = client.post(f"/api/tables/{table_id}/return", json={"id": "back"}, headers=auth(tokens[1]))
        assert back.status_code == 200, back.text
        assert state(client, table_id, tokens[0])["hints"] == off


def _people_playing(*, hints: bool) -> LiveTable:
    """A table of two people in their first deal, built from its events."""
    table = LiveTable("t", TableConfig("t", RuleSet(), 2, 100, hints=hints), 0.0)

    def add(drafts: list[Draft]) -> None:
        for event in table.number(drafts, 0.0):
            table.apply(event)

    for seat, name in enumerate(("Ana", "Bo")):
        add(table.plan_join(name, seat, name, None))
    add(table.plan_start(0))
    cutter = table.cutter
    assert cutter is not None
    add(table.plan_cut(cutter, 0, "player"))
    return table


def test_an_announced_hint_is_replayed_and_told_once_a_moment() -> None:
    table = _people_playing(hints=True)
    mover = table.actor()
    assert mover is not None
    moment = table.hint_moment
    told = table.plan_hint(mover, moment)
    assert told == [Draft("hint", mover)]
    for event in table.number(told, 1.0):
        table.apply(event)
    assert (table.hint_moment, table.version) == (moment, moment + 1)  # the same moment
    assert table.plan_hint(mover, moment) == []  # told once
    # Read back from its events (a restart, another process): told once still.
    again = LiveTable("t", table.config, 0.0)
    for event in table.events:
        again.apply(dataclasses.replace(event))
    assert again.hints_asked == {mover: moment}
    assert again.plan_hint(mover, moment) == []
    with pytest.raises(ServiceError) as stale:
        again.plan_hint(mover, moment - 1)
    assert stale.value.code == "conflict"


def test_hint_policy_alone_allowed_or_off() -> None:
    allowing = TableConfig("t", RuleSet(), 3, 100, hints=True)
    closed = TableConfig("t", RuleSet(), 3, 100)
    assert hint_policy(closed, 1) == HintPolicy(True, "alone")
    assert hint_policy(allowing, 1) == HintPolicy(True, "alone")
    assert not hint_policy(allowing, 1).announced
    assert hint_policy(allowing, 2) == HintPolicy(True, "allowed")
    assert hint_policy(allowing, 3).announced
    assert hint_policy(closed, 2) == HintPolicy(False, "people")
    with pytest.raises(ServiceError) as refused:
        hint_policy(closed, 2).check()
    assert (refused.value.code, refused.value.status) == ("hints_off", 403)
    off = _people_playing(hints=False)
    mover = off.actor()
    assert mover is not None
    with pytest.raises(ServiceError) as refused:
        off.plan_hint(mover, off.hint_moment)
    assert refused.value.code == "hints_off"


def test_the_hints_option_is_kept_in_the_tables_config_and_summary(db_url: str) -> None:
    with _client(db_url) as client:
        made = client.post("/api/tables", json={"player_name": "Ana", "seats": 2, "hints": True})
        assert made.status_code == 201, made.text
        assert made.json()["table"]["hints"] is True
        table_id = made.json()["table"]["id"]
        config = client.app.state.service.runtimes[table_id].table.config  # type: ignore[attr-defined]
        assert config.hints is True
        assert TableConfig.from_json(config.to_json()) == config
        old = {key: value for key, value in config.to_json().items() if key != "hints"}
        assert TableConfig.from_json(old).hints is False  # a table made before the option
        plain = client.post("/api/tables", json={"player_name": "Ana", "seats": 2})
        assert plain.json()["table"]["hints"] is False
