"""Everything a client is sent, built in one place from what that seat may see (R9).

:func:`view_for` (a seat's or a spectator's whole state) and :func:`event_for` (one event as
that seat sees it) are the only builders of table data for clients: the first state, every
update, a reconnection's missed events, the event history, spectators and the HTTP API all
call them. Cards come from the engine's :class:`~paiute.observation.Observation` and from
:meth:`~paiute.events.Event.seen_by`, which hide other seats' unshown cards and the stock
(R9.2, R9.3); the committed order and salt (R10.2) are read only for deals that have ended
(:func:`proof_for`, :func:`record_for`, :func:`replay_for`, ``last_deal``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import orjson

from paiute.actions import Action, ActionKind
from paiute.analysis.lesson import YOU
from paiute.cards import Card
from paiute.chance import RecordedChance
from paiute.deal import Deal, Phase
from paiute.errors import N_
from paiute.observation import Observation, legal_calls
from paiute.record import DealRecord, Record
from paiute.server.errors import ServiceError
from paiute.server.lesson import lesson_view
from paiute.server.table import LiveTable, TableEvent

__all__ = [
    "OWN_KEYS",
    "Presence",
    "SeenMemo",
    "dumps",
    "event_for",
    "events_for",
    "last_action",
    "own_part",
    "proof_for",
    "record_for",
    "replay_for",
    "shared_part",
    "summary",
    "view_for",
]


@dataclass(frozen=True, slots=True)
class Presence:
    """Who is connected to a table (in this server process), and the seats whose player has
    gone: each with the time its grace period ends and the bot takes the seat over."""

    connected: frozenset[int] = frozenset()
    spectators: int = 0
    away: tuple[tuple[int, float], ...] = ()

    def frame(self) -> dict[str, Any]:
        """The ``presence`` message pushed to a table's connections when this changes."""
        return {
            "type": "presence",
            "connected": sorted(self.connected),
            "spectators": self.spectators,
            "away": [{"seat": seat, "deadline": deadline} for seat, deadline in self.away],
        }


def summary(table: LiveTable, presence: Presence) -> dict[str, Any]:
    """The lobby's line for a table (TableSummary in docs/web-protocol.md)."""
    config = table.config
    away = dict(presence.away)
    return {
        "id": table.id,
        "name": config.name,
        "preset": config.rules.preset,
        "rules": config.rules.to_dict(),
        "seats": config.seats,
        "stake": config.rules.stake,
        "chips": config.chips,
        "private": config.private,
        "hints": config.hints,
        "rated": config.rated,
        "lesson": config.lesson,
        "turn_seconds": config.turn_seconds,
        "bank_seconds": config.bank_seconds,
        "max_deals": config.max_deals,
        "bots": config.bots,
        "status": "waiting"
        if table.status == "waiting"
        else "closed"
        if table.status == "closed"
        else "playing",
        "players": [
            {
                "seat": index,
                "name": seat.name,
                "bot": seat.bot,
                "taken": seat.taken,
                "connected": index in presence.connected,
                "autoplay": table.autoplay.get(index),
                "away_until": away.get(index),
                # At a rated table, the account that plays the seat (its profile's name).
                "account": seat.name if seat.account is not None else None,
            }
            for index, seat in enumerate(table.seats)
        ],
        "spectators": presence.spectators,
        "deals": table.finished_deals,
        "host": table.host,
        "rematch": table.rematch,
    }


def view_for(table: LiveTable, seat: int | None, presence: Presence) -> dict[str, Any]:
    """Everything ``seat`` (None: a spectator) may see of ``table`` now (the View)."""
    deal = table.deal
    observation = None if deal is None else deal.observation(seat)
    view = shared_part(table, presence)
    view.update(own_part(table, seat, deal, observation, None))
    view["observation"] = None if observation is None else observation.to_json()
    return view


def shared_part(table: LiveTable, presence: Presence) -> dict[str, Any]:
    """The part of the View that is the same for every seat and spectator."""
    deal = table.deal
    proof = table.pending_proof
    match = table.match
    return {
        "table": summary(table, presence),
        "version": table.version,
        "status": table.status,
        "deal_number": table.deal_number,
        "names": table.names(),
        "balances": list(match.balances) if match is not None else [table.config.chips] * len(table.seats),
        "pot": match.pot if match is not None else 0,
        "cutter": table.cutter,
        "dealer": table.dealer,
        "commitment": None if proof is None else proof.public_json(),
        "calls_text": [] if deal is None else [{"seat": c.seat, "text": str(c.value)} for c in deal.calls],
        "last_deal": _last_deal(table),
        "clock": _clock(table),
        "chat": [_chat(event) for event in table.chat],
    }


#: The keys of :func:`own_part`: the View's keys that depend on the seat, besides "observation".
OWN_KEYS = ("you", "best_call", "call_options", "last_actions", "invite", "hints", "lesson")


def own_part(
    table: LiveTable,
    seat: int | None,
    deal: Deal | None,
    observation: Observation | None,
    seen: SeenMemo | None,
) -> dict[str, Any]:
    """The part of the View that depends on the seat (less the observation itself)."""
    calls = [] if observation is None else _call_options(deal, observation)
    return {
        "you": seat,
        "best_call": calls[0] if calls else None,
        "call_options": calls,
        "last_actions": _last_actions(table, seat, seen),
        "invite": _invite(table, seat),
        "hints": _hints(table, seat),
        # A lesson table's coach, for its person only (it names cards of their hand, R9).
        "lesson": None if table.lesson is None or seat != YOU else lesson_view(table.lesson, deal),
    }


def dumps(value: Any) -> str:
    """``value`` as compact JSON text: every frame the server sends is encoded here.

    orjson (the ``web`` extra): the frames are the largest share of the server's CPU per
    action after compression (benchmarks/server_load.py), and it encodes them several times
    faster than the standard library, to the same JSON (non-ASCII text as UTF-8, not escaped).
    """
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


_dumps = dumps  # the name the builders below use


#: The short form of each action a seat has seen, by (version, seat): kept for the rest of a
#: deal, as an action seen by a seat never changes (:class:`~paiute.server.updates.Updates`).
SeenMemo = dict[tuple[int, int | None], dict[str, Any]]


def event_for(table: LiveTable, event: TableEvent, seat: int | None) -> dict[str, Any]:
    """``event`` as ``seat`` may see it (R4.5, R9): a stock draw's card only for the drawer."""
    names = table.names()

    def name(index: int | None) -> str:
        if index is None:
            return "the table"
        return names[index] or f"seat {index}"

    data = event.data
    out: dict[str, Any] = {
        "version": event.version,
        "type": event.type,
        "seat": event.seat,
        "deal": event.deal,
    }
    kind = event.type
    if kind == "joined":
        out["name"] = data["name"]
        out["text"] = f"{data['name']} sits down at seat {event.seat}"
    elif kind == "left":
        out["text"] = f"seat {event.seat} is free again"
    elif kind == "started":
        out["names"] = data["names"]
        out["text"] = "the match starts"
    elif kind == "commitment":
        out.update(dealer=data["dealer"], cutter=data["cutter"], sha256=data["sha256"])
        out["text"] = (
            f"deal {data['deal']}: {name(data['dealer'])} deals; the shuffled pack is committed "
            f"(SHA-256 {data['sha256'][:12]}…); {name(data['cutter'])} cuts"
        )
    elif kind == "cut":
        out.update(position=data["position"], by=data["by"])
        out["text"] = f"{name(event.seat)} cuts the pack at {data['position']}"
    elif kind == "deal":
        dealt = _deal(table, event.deal)
        upcard = None if dealt is None or dealt.upcard is None else str(dealt.upcard)
        out.update(dealer=event.seat, upcard=upcard)
        out["text"] = f"{name(event.seat)} deals" + (f"; the upcard is {upcard}" if upcard else "")
    elif kind == "action":
        _action_fields(out, event, seat, name(event.seat))
    elif kind == "deal_over":
        out.update(_deal_end(table, event.deal))
    elif kind == "chat":
        out.update(name=data["name"], text=data["text"])
    elif kind == "timeout":
        out["text"] = f"{name(event.seat)}'s clock ran out: the server plays for them"
    elif kind == "autoplay":
        out["reason"] = data["reason"]
        out["text"] = f"the bot plays for {name(event.seat)} ({data['reason']})"
    elif kind == "returned":
        out["text"] = f"{name(event.seat)} is back and plays again"
    elif kind == "relinked":  # the token itself is in the server-only secret, never sent
        out["text"] = f"{name(event.seat)} opened the seat on another device"
    elif kind == "hint":  # who asked, never the hint or a card (R9)
        out["text"] = f"{name(event.seat)} asked for a hint"
    elif kind == "lesson":  # the lesson went on to its next step (paiute.server.lesson)
        out["step"] = data["step"]
        out["text"] = f"the lesson goes on: {data['step']}"
    elif kind == "rematch":
        out["table"] = data["table"]
        out["text"] = f"a rematch table is ready: /t/{data['table']}"
    elif kind == "closed":
        out.update(reason=data["reason"], text=f"the match is over: {data['reason']}")
        for key in ("cause", "deals", "seats"):  # why, for the pages to say it in their language
            if key in data:
                out[key] = data[key]
        if "idle_minutes" in data:  # it ended because nobody was at the table (abandoned)
            out["idle_minutes"] = data["idle_minutes"]
    else:  # pragma: no cover - every stored type is handled above
        out["text"] = kind
    return out


def events_for(table: LiveTable, since: int, seat: int | None) -> list[dict[str, Any]]:
    """Every event after version ``since``, as ``seat`` sees them."""
    start = max(0, since)
    return [event_for(table, event, seat) for event in table.events[start:]]


def _action_fields(out: dict[str, Any], event: TableEvent, seat: int | None, who: str) -> None:
    engine = event.engine
    assert engine is not None
    seen = engine.seen_by(seat)
    action = seen.action
    card = None if seen.card is None else str(seen.card)
    out.update(action=str(action), card=card, by=event.data["by"], rebuilt=seen.rebuilt)
    if "rebuild" in event.data:
        out["rebuild"] = {"sha256": event.data["rebuild"]["sha256"]}
    text = ""
    if seen.rebuilt:
        text = f"the stock is rebuilt from {seen.rebuilt} discards (R4.6); "
    kind = action.kind
    if kind is ActionKind.DRAW_STOCK:
        if seen.ends_deal and seen.card is None:
            text += f"{who} would need another rebuild: the deal is dead (R4.7)"
        else:
            text += f"{who} draws {card} from the stock" if card else f"{who} draws from the stock"
    elif kind is ActionKind.DRAW_DISCARD:
        text += f"{who} takes {card} from the discard pile"
    elif kind is ActionKind.DISCARD:
        text += f"{who} discards {card}"
    else:
        call = seen.call
        assert call is not None
        out["call"] = {
            "shown": [str(c) for c in call.shown],
            "value": call.value.to_json(),
            "text": str(call.value),
            "discard": card,
        }
        text += f"{who} calls {call.value}" + (f", putting down {card}" if card else "")
    if event.data["by"] == "clock":
        text += " (played by the clock)"
    out["text"] = text


def _deal(table: LiveTable, number: int | None) -> Deal | None:
    match = table.match
    if match is None or number is None or not 1 <= number <= len(match.deals):
        return None
    return match.deals[number - 1]


def _deal_end(table: LiveTable, number: int | None) -> dict[str, Any]:
    match = table.match
    assert match is not None
    assert number is not None
    result = match.results[number - 1]
    names = table.names()
    if result.outcome.dead:
        text = f"deal {number} is dead: nobody wins, the pot stays (R4.7, R8.5)"
    else:
        winners = " and ".join(names[w] or f"seat {w}" for w in result.outcome.winners)
        text = f"deal {number} is over: {winners} win{'s' if len(result.outcome.winners) == 1 else ''}"
    return {"winners": list(result.outcome.winners), "dead": result.outcome.dead, "text": text}


def _call_options(deal: Deal | None, observation: Observation) -> list[dict[str, Any]]:
    """Every call the seat may make now (R6), best first, for the page to preview."""
    if deal is None or observation.seat is None or not observation.is_my_turn:
        return []
    if deal.phase is not Phase.DISCARD:
        return []
    return [
        {
            "action": str(Action.call(call.discard)),
            "value": call.value.to_json(),
            "text": str(call.value),
            "shown": [str(card) for card in call.shown],
            "discard": None if call.discard is None else str(call.discard),
        }
        for call in legal_calls(observation, deal.evaluator)
    ]


def last_action(seen: dict[str, Any]) -> dict[str, Any]:
    """An action event as a seat saw it (:func:`event_for`), in the short form of ``last_actions``."""
    return {key: seen[key] for key in ("version", "action", "card", "by", "text")}


def _last_actions(table: LiveTable, seat: int | None, memo: SeenMemo | None) -> list[dict[str, Any] | None]:
    """Each seat's last action in the current deal, as ``seat`` sees it (``memo``: kept per
    version and seat for the rest of the deal, as an action seen by a seat never changes)."""
    result: list[dict[str, Any] | None] = []
    for index in range(len(table.seats)):
        event = table.last_actions.get(index)
        if event is None:
            result.append(None)
            continue
        short = None if memo is None else memo.get((event.version, seat))
        if short is None:
            short = last_action(event_for(table, event, seat))
            if memo is not None:
                memo[(event.version, seat)] = short
        result.append(short)
    return result


def _last_deal(table: LiveTable) -> dict[str, Any] | None:
    """The last FINISHED deal, all revealed (R9.3: once a deal has ended nothing is hidden)."""
    match = table.match
    number = table.finished_deals
    if match is None or number == 0:
        return None
    deal = match.deals[number - 1]
    result = match.results[number - 1]
    before = match.results[number - 2].balances if number >= 2 else match.initial_balances
    called = {call.seat: call for call in result.outcome.calls}
    base = f"/api/tables/{table.id}"
    return {
        "deal": number,
        "dealer": deal.dealer,
        "wild_cards": [str(card) for card in sorted(deal.wild_cards)],  # R3: the marks it keeps
        "winners": list(result.outcome.winners),
        "dead": result.outcome.dead,
        "calls": [
            {
                "seat": call.seat,
                "shown": [str(card) for card in call.shown],
                "value": call.value.to_json(),
                "text": str(call.value),
                "first_turn": call.first_turn,
            }
            for call in result.outcome.calls
        ],
        "hands": [
            [str(card) for card in (called[s].shown if s in called else deal.hand(s))]
            for s in range(deal.players)
        ],
        "payouts": [after - prior for after, prior in zip(result.balances, before, strict=True)],
        "balances": list(result.balances),
        "pot": result.pot,
        "proof_url": f"{base}/deals/{number}/proof",
        "replay_url": f"/t/{table.id}/replay?deal={number}",
        "record_url": f"{base}/record",
    }


def _clock(table: LiveTable) -> dict[str, Any] | None:
    """The clock of the person to act: the end of its turn time, then of its time bank."""
    seconds = table.config.turn_seconds
    actor = table.actor()
    deadline = table.deadline()
    if seconds is None or actor is None or deadline is None:
        return None
    return {
        "seat": actor,
        "turn_deadline": table.turn_started + seconds,
        "deadline": deadline,
        "seconds": seconds,
        "bank": table.banks[actor],
    }


def _chat(event: TableEvent) -> dict[str, Any]:
    return {
        "version": event.version,
        "seat": event.seat,
        "name": event.data["name"],
        "text": event.data["text"],
    }


def _hints(table: LiveTable, seat: int | None) -> dict[str, Any]:
    """Whether the viewer may ask for hints now, and why (hint_policy): the page's hint button."""
    policy = table.hints_for(seat)
    return {"on": policy.on, "reason": policy.reason}


def _invite(table: LiveTable, seat: int | None) -> str | None:
    """The invitation link, for the seated players of a private table only."""
    code = table.config.invite
    if code is None or seat is None:
        return None
    return f"/t/{table.id}?invite={code}"


# -- finished deals: everything revealed (R9.3, R10.2) ----------------------------------------


def _finished(table: LiveTable, number: int) -> Deal:
    if table.match is None or not 1 <= number <= len(table.match.deals):
        raise ServiceError("not_found", N_("deal {deal} has not been dealt at this table"), deal=number)
    if not table.is_finished(number):
        raise ServiceError(
            "conflict", N_("deal {deal} has not ended: it is revealed when it ends (R9.3)"), deal=number
        )
    return table.match.deals[number - 1]


def proof_for(table: LiveTable, number: int) -> dict[str, Any]:
    """The fair-deal proof of a finished deal (R10.2)."""
    _finished(table, number)
    proof = table.proofs[number - 1].proof_json()
    proof["deal"] = number
    return proof


def record_for(table: LiveTable) -> Record:
    """The match as a paiute-record/1 record of its FINISHED deals (commitments revealed)."""
    match = table.match
    if match is None:
        raise ServiceError("conflict", N_("the match has not started"))
    finished = table.finished_deals
    deals = tuple(
        DealRecord(deal.dealer, deal.deck, deal.rebuild_orders, deal.actions, proof.record_json())
        for deal, proof in zip(match.deals[:finished], table.proofs[:finished], strict=True)
    )
    return Record(match.rules, match.players, match.initial_balances, match.initial_pot, deals)


def replay_for(table: LiveTable, number: int) -> dict[str, Any]:
    """Every state of a finished deal, all cards shown: for stepping through it in the page."""
    played = _finished(table, number)
    match = table.match
    assert match is not None
    deal = Deal(
        played.rules,
        played.players,
        played.dealer,
        played.deck,
        RecordedChance(played.rebuild_orders),
        balances=played.balances,
        pot=played.pot,
    )
    steps: list[dict[str, Any]] = [{"action": None, "seat": None, "state": _revealed(deal)}]
    for action in played.actions:
        seat = deal.current_seat
        deal.apply(action)
        steps.append({"action": str(action), "seat": seat, "state": _revealed(deal)})
    return {"deal": number, "players": list(match.players), "steps": steps}


def _revealed(deal: Deal) -> dict[str, Any]:
    state = deal.observation(None).to_json()
    state["hands"] = [[str(card) for card in deal.hand(seat)] for seat in range(deal.players)]
    state["stock"] = [str(card) for card in _stock(deal)]
    return state


def _stock(deal: Deal) -> list[Card]:
    """The stock, top first: the cards of its source (the deck or the last rebuild) that are
    nowhere else (R2.6, R2.7, R4.6)."""
    elsewhere: set[Card] = set(deal.discard_pile)
    for seat in range(deal.players):
        elsewhere.update(deal.hand(seat))
    for call in deal.calls:
        elsewhere.update(call.shown)
    if deal.upcard is not None and deal.stock_bottom is None:
        elsewhere.add(deal.upcard)  # out of play (R2.6) or already drawn
    source: Iterable[Card]
    if deal.rebuild_orders:
        source = deal.rebuild_orders[-1]
    else:
        dealt = 5 * deal.players + (0 if deal.upcard is None else 1)
        source = [*deal.deck[dealt:], *([deal.upcard] if deal.upcard is not None else [])]
    return [card for card in source if card not in elsewhere]
