"""Game records in the ``paiute-record/1`` format of RECORD.md: write, read, replay.

A record re-creates every state of a match with no random generator: each deck (after the
shuffle and cut) and each stock rebuild is written down, with every action in order.

>>> import random
>>> from paiute import Match, RuleSet, SeededChance
>>> match = Match(RuleSet(), ["Ana", "Bo"], chance=SeededChance(5))
>>> deal = match.start_deal()
>>> policy = random.Random(5)
>>> while not deal.is_over:
...     _ = match.apply(policy.choice(deal.legal_actions()))
>>> record = Record.from_match(match)
>>> Record.loads(record.dumps()).dumps() == record.dumps()
True
>>> replay = record.replay()
>>> replay.reports[0].balances == match.balances
True
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paiute.actions import Action
from paiute.cards import Card, pack
from paiute.chance import RecordedChance
from paiute.deal import CallMade, Deal
from paiute.errors import N_, Excerpt, IllegalActionError, PaiuteError, RecordError, ReplayError
from paiute.match import Match
from paiute.record_file import MAX_RECORD_BYTES, parse_json, read_bytes, select_json
from paiute.rules import RuleSet

__all__ = [
    "FORMAT",
    "MAX_NAME",
    "MAX_RECORD_BYTES",
    "DealRecord",
    "DealReport",
    "Record",
    "Replay",
    "ReplayError",
    "load",
    "save",
]

FORMAT = "paiute-record/1"
#: The longest player name a record may hold (the server allows 32, bot labels are longer).
MAX_NAME = 100
#: Longer than any action text ("call Ah Kh Qh Jh Th 2c" with wide card forms).
MAX_ACTION = 80


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One deal of a record: the dealer, the dealt deck (top first), the rebuilt stocks
    (each top first), the actions, and an optional fair-deal commitment (R10.2)."""

    dealer: int
    deck: tuple[Card, ...]
    rebuilds: tuple[tuple[Card, ...], ...] = ()
    actions: tuple[Action, ...] = ()
    commitment: Mapping[str, object] | None = None

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "dealer": self.dealer,
            "deck": [str(card) for card in self.deck],
            "rebuilds": [[str(card) for card in order] for order in self.rebuilds],
            "actions": [str(action) for action in self.actions],
        }
        if self.commitment is not None:
            data["commitment"] = dict(self.commitment)
        return data


@dataclass(frozen=True, slots=True)
class DealReport:
    """What a replayed deal came to (RECORD.md "What a reader must do")."""

    dealer: int
    finished: bool
    dead: bool
    calls: tuple[CallMade, ...]
    winners: tuple[int, ...]
    balances: tuple[int, ...]
    pot: int

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "dead": self.dead,
            "callers": [call.to_json() for call in self.calls],
            "winners": sorted(self.winners),
            "balances": list(self.balances),
            "pot": self.pot,
        }
        if not self.finished:
            data["in_progress"] = True
        return data


@dataclass(slots=True)
class Replay:
    """A record replayed through the engine: the match re-created and a report per deal."""

    match: Match
    reports: list[DealReport] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {"ok": True, "deals": [report.to_json() for report in self.reports]}


@dataclass(frozen=True, slots=True)
class Record:
    """A whole match (RECORD.md): rules, players, chips before the first deal, the deals."""

    rules: RuleSet
    players: tuple[str, ...]
    balances: tuple[int, ...]
    pot: int
    deals: tuple[DealRecord, ...]

    @classmethod
    def from_match(cls, match: Match) -> Record:
        deals = tuple(
            DealRecord(deal.dealer, deal.deck, deal.rebuild_orders, deal.actions, commitment)
            for deal, commitment in zip(match.deals, match.commitments, strict=True)
        )
        return cls(match.rules, match.players, match.initial_balances, match.initial_pot, deals)

    # -- writing ------------------------------------------------------------------------

    def to_json(self) -> dict[str, object]:
        return {
            "format": FORMAT,
            "rules": self.rules.to_dict(),
            "players": list(self.players),
            "balances": list(self.balances),
            "pot": self.pot,
            "deals": [deal.to_json() for deal in self.deals],
        }

    def dumps(self) -> str:
        """The record as compact JSON text, always the same for the same record."""
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))

    # -- reading ------------------------------------------------------------------------

    @classmethod
    def loads(cls, text: str | bytes) -> Record:
        """Read a record from JSON text; a malformed one raises :class:`RecordError`.

        The limits of :mod:`paiute.record_file` hold (nesting, long numbers, UTF-8).
        """
        return cls.from_json(parse_json(text))

    @classmethod
    def select(cls, data: str | bytes, *, match: int | None = None, source: str = "-") -> Record:
        """The record of a file's contents: its only record, or line ``match`` of JSON lines
        (:func:`paiute.record_file.select_json`)."""
        return cls.from_json(select_json(data, match=match, source=source))

    @classmethod
    def from_json(cls, data: object) -> Record:
        """Read a record from parsed JSON, checking every field (RECORD.md)."""
        if not isinstance(data, dict):
            raise RecordError(N_("a record is a JSON object"))
        fmt = data.get("format")
        if fmt != FORMAT:
            raise RecordError(
                N_("unknown format {found!r} (expected {expected!r})"), found=fmt, expected=FORMAT
            )
        rules_data = _require(data, "rules", dict, None)
        try:
            rules = RuleSet.from_dict(rules_data)
        except PaiuteError as error:  # the rule-set error's own template, for translation
            raise RecordError(error.message_id, **error.params) from None
        players = _require(data, "players", list, None)
        if not all(isinstance(name, str) for name in players):
            raise RecordError(N_("players: every name must be a string"))
        for seat, name in enumerate(players):
            # Names are printed to terminals: no control characters (an escape sequence could
            # rewrite the screen), no unpaired surrogates, a bounded length.
            if not name.isprintable() or not 0 < len(name) <= MAX_NAME:
                raise RecordError(
                    N_("players[{seat}]: a name is 1 to {limit} printable characters, got {value!r}"),
                    seat=seat,
                    limit=MAX_NAME,
                    value=name,
                )
        try:
            rules.check_players(len(players))
        except PaiuteError as error:
            raise RecordError(N_("players: {error}"), error=error) from None
        balances = _require(data, "balances", list, None)
        if len(balances) != len(players) or not all(_is_int(b) for b in balances):
            raise RecordError(
                N_("balances: expected {n} whole numbers, got {value!r}"), n=len(players), value=balances
            )
        pot = data.get("pot", 0)
        if not _is_int(pot):
            raise RecordError(N_("pot: expected a whole number, got {value!r}"), value=pot)
        deals_data = _require(data, "deals", list, None)
        deals = tuple(_read_deal(index, deal, rules, len(players)) for index, deal in enumerate(deals_data))
        return cls(rules, tuple(players), tuple(balances), pot, deals)

    # -- replaying ----------------------------------------------------------------------

    def replay(self) -> Replay:
        """Re-create the match action by action (RECORD.md "What a reader must do").

        Raises :class:`ReplayError` at the first action that breaks a rule and
        :class:`RecordError` for a record that is malformed in a way only replay shows
        (a deal that continues after it ended, a missing deal end, a wrong rebuild).
        """
        players = len(self.players)
        first_dealer = self.deals[0].dealer if self.deals else None
        match = Match(
            self.rules,
            self.players,
            balances=self.balances,
            pot=self.pot,
            chance=RecordedChance(()),
            dealer=first_dealer,
        )
        replay = Replay(match)
        previous: Deal | None = None
        for index, deal_record in enumerate(self.deals):
            if previous is not None:
                if not previous.is_over:
                    raise RecordError(
                        N_("deal {previous} has not ended but deal {deal} follows (missing deal end, R7.3)"),
                        previous=index,
                        deal=index + 1,
                    )
                expected = (previous.dealer + 1) % players
                if deal_record.dealer != expected:
                    raise RecordError(
                        N_(
                            "deal {deal}: dealer {dealer}, but the deal passes to the left (R2.3): expected {expected}"
                        ),
                        deal=index + 1,
                        dealer=deal_record.dealer,
                        expected=expected,
                    )
            chance = RecordedChance(deal_record.rebuilds, deal=index)
            deal = match.start_deal(deal_record.deck, chance=chance, commitment=deal_record.commitment)
            for position, action in enumerate(deal_record.actions):
                if deal.is_over:
                    raise RecordError(
                        N_('deal {deal}, move {move} "{text}": the deal continues after it ended (R7.3)'),
                        deal=index + 1,
                        move=position + 1,
                        text=str(action),
                    )
                try:
                    match.apply(action)
                except ReplayError:
                    raise
                except IllegalActionError as error:
                    raise ReplayError(
                        index, position, str(action), error.rule, error.reason, cause=error
                    ) from None
            if deal.is_over and chance.unused:
                raise RecordError(
                    N_("deal {deal}: recorded rebuilds that the deal never made: {n} (R4.6)"),
                    deal=index + 1,
                    n=chance.unused,
                )
            replay.reports.append(_report(deal, match))
            previous = deal
        return replay


def _report(deal: Deal, match: Match) -> DealReport:
    outcome = deal.outcome
    if outcome is None:
        return DealReport(deal.dealer, False, False, deal.calls, (), match.balances, match.pot)
    return DealReport(
        deal.dealer, True, outcome.dead, outcome.calls, outcome.winners, match.balances, match.pot
    )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# Each message names where the fault is (the record, a deal, a deal's deck or rebuild) in
# one sentence of its own, so that a translation may order it as its language needs. Deals,
# moves and rebuilds are counted from 1 in them, as people count (docs/command-line.md,
# "Numbering"); the functions below take the record's indexes, from 0, and add the 1.


def _require(data: Mapping[str, Any], key: str, kind: type, deal: int | None) -> Any:
    """``data[key]`` of type ``kind``, in the record itself (``deal`` None) or deal index ``deal``."""
    if key not in data:
        if deal is None:
            raise RecordError(N_("missing field {key!r}"), key=key)
        raise RecordError(N_("deal {deal}: missing field {key!r}"), deal=deal + 1, key=key)
    value = data[key]
    if not isinstance(value, kind):
        if deal is None:
            raise RecordError(
                N_("{key}: expected {kind}, got {value!r}"), key=key, kind=kind.__name__, value=value
            )
        raise RecordError(
            N_("deal {deal}: {key}: expected {kind}, got {value!r}"),
            deal=deal + 1,
            key=key,
            kind=kind.__name__,
            value=value,
        )
    return value


def _read_cards(texts: object, deal: int, rebuild: int | None) -> tuple[Card, ...]:
    """Deal index ``deal``'s deck (``rebuild`` None) or its rebuilt stock of index ``rebuild``,
    in canonical card text."""
    if not isinstance(texts, list):
        if rebuild is None:
            raise RecordError(
                N_("deal {deal}: deck: expected a list of cards, got {value!r}"), deal=deal + 1, value=texts
            )
        raise RecordError(
            N_("deal {deal}: rebuild {rebuild}: expected a list of cards, got {value!r}"),
            deal=deal + 1,
            rebuild=rebuild + 1,
            value=texts,
        )
    cards = []
    for text in texts:
        try:
            if not isinstance(text, str):
                raise RecordError(repr(text))
            cards.append(Card.parse(text))
        except PaiuteError:
            # What was found, as the record has it: a JSON string, or another value's repr.
            shown = json.dumps(text) if isinstance(text, str) and len(text) <= 40 else repr(Excerpt(text))
            if rebuild is None:
                raise RecordError(
                    N_("deal {deal}: deck: unknown card text {text}"), deal=deal + 1, text=shown
                ) from None
            raise RecordError(
                N_("deal {deal}: rebuild {rebuild}: unknown card text {text}"),
                deal=deal + 1,
                rebuild=rebuild + 1,
                text=shown,
            ) from None
    return tuple(cards)


def _read_deal(index: int, data: object, rules: RuleSet, players: int) -> DealRecord:
    """Deal index ``index`` of a record, every field checked."""
    number = index + 1  # as the messages count deals
    if not isinstance(data, dict):
        raise RecordError(N_("deal {deal}: a deal is a JSON object"), deal=number)
    dealer = data.get("dealer")
    if not _is_int(dealer) or not 0 <= dealer < players:  # type: ignore[operator]
        raise RecordError(
            N_("deal {deal}: dealer {dealer!r} is not one of the {players} seats"),
            deal=number,
            dealer=dealer,
            players=players,
        )
    deck = _read_cards(_require(data, "deck", list, index), index, None)
    expected = Counter(pack(rules.jokers))
    found = Counter(deck)
    if found != expected:
        missing = sorted(expected - found)
        extra = sorted(found - expected)
        raise RecordError(
            N_("deal {deal}: the deck is not exactly one pack ({n} cards; missing {missing}; extra {extra})"),
            deal=number,
            n=len(deck),
            missing=str([str(c) for c in missing]),
            extra=str([str(c) for c in extra]),
        )
    rebuild_data = data.get("rebuilds", [])
    if not isinstance(rebuild_data, list):
        raise RecordError(
            N_("deal {deal}: rebuilds: expected a list of stocks, got {value!r}"),
            deal=number,
            value=rebuild_data,
        )
    rebuilds = tuple(_read_cards(order, index, rebuild) for rebuild, order in enumerate(rebuild_data))
    actions = []
    for position, text in enumerate(_require(data, "actions", list, index)):
        if not isinstance(text, str):
            raise RecordError(
                N_("deal {deal}, move {move}: expected text, got {value!r}"),
                deal=number,
                move=position + 1,
                value=text,
            )
        if len(text) > MAX_ACTION:  # no action is this long: quote it cut short
            raise RecordError(
                N_("deal {deal}, move {move}: not an action: {value!r}"),
                deal=number,
                move=position + 1,
                value=Excerpt(text),
            )
        try:
            actions.append(Action.parse(text))
        except PaiuteError as error:
            raise RecordError(
                N_("deal {deal}, move {move}: {error}"), deal=number, move=position + 1, error=error
            ) from None
    commitment = data.get("commitment")
    if commitment is not None and not (
        isinstance(commitment, dict)
        and isinstance(commitment.get("sha256"), str)
        and isinstance(commitment.get("salt"), str)
        and _is_int(commitment.get("cut"))
    ):
        raise RecordError(
            N_("deal {deal}: commitment: expected {shape}"),
            deal=number,
            shape='{"sha256": text, "salt": text, "cut": number}',
        )
    return DealRecord(dealer, deck, rebuilds, tuple(actions), commitment)  # type: ignore[arg-type]


def save(record: Record, path: str | os.PathLike[str]) -> None:
    """Write ``record`` to ``path`` atomically: a crash leaves the old file or the new one."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(record.dumps() + "\n")
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o644)  # mkstemp makes it private; a record is for sharing
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def load(path: str | os.PathLike[str], *, match: int | None = None) -> Record:
    """Read a record file: its record, or record ``match`` of JSON lines.

    Malformed content raises :class:`RecordError`; a file that cannot be read (missing, a
    directory), or JSON lines of several records without ``match``,
    :class:`~paiute.errors.InputError`. At most :data:`MAX_RECORD_BYTES` are read.
    """
    return Record.select(read_bytes(path), match=match, source=os.fsdecode(path))
