"""The game loop of ``paiute play``, with no user interface: the match, the bots, the record.

A :class:`Session` owns a :class:`~paiute.match.Match` and one player per bot seat. User
interfaces ask it for a seat's :class:`~paiute.observation.Observation` and build every screen
from that alone (R9); they hand it the human's actions, which it checks with
:meth:`~paiute.deal.Deal.why_illegal` so that a refusal names its rule.

Every match is kept as a ``paiute-record/1`` file (written atomically with
:func:`paiute.record.save`) when a deal starts, after every human turn, when a deal ends and
when the player quits. Beside it, ``NAME.play.json`` holds what the record does not: which
seats are people and which bots, the seed and whether the match has ended. :meth:`Session.resume`
replays the record to rebuild the match, then play continues. With ``--seed`` every deal ``k``
is shuffled by its own generator, derived from the seed and ``k``, and bots are seeded per deal
the same way, so a resumed match deals the same cards as one that was never interrupted.
"""

from __future__ import annotations

import json
import os
import secrets
import tempfile
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from paiute.actions import Action
from paiute.analysis.hint import DEFAULT_PLAYOUTS, Hint, hint, position_seed
from paiute.cards import Card
from paiute.chance import Chance, SecureChance, SeededChance, derive_seed
from paiute.deal import Deal, Event
from paiute.errors import N_, IllegalActionError, InputError, PaiuteError, RecordError
from paiute.match import DealResult, Match
from paiute.observation import Observation
from paiute.players import Player, make_player
from paiute.record import Record, load, save
from paiute.record_file import parse_json, read_bytes
from paiute.rules import RuleSet
from paiute.showdown import Showdown, showdown
from paiute.tui.describe import HAND_ORDERS

__all__ = [
    "DEFAULT_CHIPS",
    "DEFAULT_HINT",
    "META_FORMAT",
    "PlayConfig",
    "SavedMatch",
    "SeatSpec",
    "Session",
    "data_dir",
    "find_match",
    "latest_unfinished",
    "match_id",
    "meta_path",
    "saved_matches",
]

META_FORMAT = "paiute-play/1"
#: Determinizations a hint plays out each legal move on (paiute.analysis.hint): the "hint" key.
DEFAULT_HINT = DEFAULT_PLAYOUTS
#: The most a hint makes a person wait (the playouts stop early past it).
HINT_BUDGET_MS = 3000.0
DEFAULT_CHIPS = 100


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat: its name and, for a bot, the player spec (``"greedy"``, ``"ismcts:ms=100"``)."""

    name: str
    bot: str | None = None

    @property
    def is_human(self) -> bool:
        return self.bot is None


@dataclass(frozen=True, slots=True)
class PlayConfig:
    """Everything that defines a match of ``paiute play``."""

    rules: RuleSet
    seats: tuple[SeatSpec, ...]
    seed: int | None = None
    chips: int = DEFAULT_CHIPS
    hint: int = DEFAULT_HINT  # the hint's playouts per move (paiute.analysis.hint)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(index for index, seat in enumerate(self.seats) if seat.is_human)

    def to_json(self) -> dict[str, object]:
        return {
            "seats": [{"name": seat.name, "bot": seat.bot} for seat in self.seats],
            "seed": self.seed,
            "chips": self.chips,
            "hint": self.hint,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object], rules: RuleSet) -> PlayConfig:
        seats_data = data.get("seats")
        if not isinstance(seats_data, list):
            raise RecordError(N_("play metadata: seats: expected a list"))
        seats = []
        for item in seats_data:
            if not isinstance(item, dict) or not isinstance(item.get("name"), str):
                raise RecordError(N_("play metadata: bad seat {item!r}"), item=item)
            bot = item.get("bot")
            if bot is not None and not isinstance(bot, str):
                raise RecordError(N_("play metadata: bad bot {bot!r}"), bot=bot)
            seats.append(SeatSpec(item["name"], bot))
        seed = data.get("seed")
        chips = data.get("chips", DEFAULT_CHIPS)
        hint = data.get("hint", DEFAULT_HINT)
        if isinstance(hint, str):
            hint = DEFAULT_HINT  # older metadata names a bot spec here: the default playouts
        if seed is not None and not isinstance(seed, int):
            raise RecordError(N_("play metadata: bad seed {seed!r}"), seed=seed)
        if not isinstance(chips, int) or not isinstance(hint, int) or isinstance(hint, bool) or hint < 1:
            raise RecordError(N_("play metadata: bad chips or hint"))
        return cls(rules, tuple(seats), seed, chips, hint)


def _play_seed(seed: int, *parts: object) -> int:
    """A seed for one purpose (a deal's shuffle, a bot, a hint) derived from the match seed."""
    return derive_seed("paiute-play", seed, *parts, separator=":")


def data_dir() -> Path:
    """Where matches are kept: ``$PAIUTE_DATA_DIR``, else the user's data directory."""
    override = os.environ.get("PAIUTE_DATA_DIR")
    if override:
        return Path(override)
    try:
        import platformdirs
    except ImportError:  # pragma: no cover - platformdirs is part of the ``tui`` extra
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        return Path(base) / "paiute"
    return Path(platformdirs.user_data_dir("paiute", appauthor=False))


def meta_path(record_path: Path) -> Path:
    """The ``NAME.play.json`` beside the record ``NAME.json``."""
    return record_path.with_name(record_path.stem + ".play.json")


def match_id(record_path: Path) -> str:
    """The name ``paiute play --list`` shows and ``--resume ID`` takes: the file's stem
    without ``match-`` (``20261201-210000-a1b2c3``)."""
    return record_path.stem.removeprefix("match-")


@dataclass(frozen=True, slots=True)
class SavedMatch:
    """A match saved in the matches folder, as ``paiute play --list`` shows it."""

    id: str
    path: Path
    updated: float
    players: tuple[str, ...]
    deals: int
    finished: bool
    balances: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "path": str(self.path),
            "updated": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(self.updated)),
            "players": list(self.players),
            "deals": self.deals,
            "finished": self.finished,
            "balances": None if self.balances is None else list(self.balances),
        }


def _read_meta(path: Path) -> dict[str, object]:
    """The play metadata beside a record, read with the record limits (it may be tampered with)."""
    try:
        data = parse_json(read_bytes(path))
    except PaiuteError as error:
        raise RecordError(N_("cannot read {path!r}: {error}"), path=str(path), error=error) from None
    if not isinstance(data, dict) or data.get("format") != META_FORMAT:
        raise RecordError(N_("{path!r} is not {format} metadata"), path=str(path), format=META_FORMAT)
    return data


def saved_matches(directory: Path) -> list[SavedMatch]:
    """Every match saved in ``directory`` with its metadata, the latest saved first; files
    that cannot be read are left out."""
    found = []
    for meta in sorted(directory.glob("*.play.json")) if directory.is_dir() else ():
        record = meta.with_name(meta.name[: -len(".play.json")] + ".json")
        try:
            data = _read_meta(meta)
            updated = record.stat().st_mtime
            summary = data.get("summary")
            if isinstance(summary, dict) and isinstance(summary.get("deals"), int):
                seats = data.get("seats")
                seat_list = seats if isinstance(seats, list) else []
                players = tuple(str(seat.get("name")) for seat in seat_list if isinstance(seat, dict))
                balances = summary.get("balances")
                shown = tuple(balances) if isinstance(balances, list) else None
                deals = summary["deals"]
            else:  # metadata without a summary (an older format): read the record itself
                saved = load(record)
                players, deals, shown = saved.players, len(saved.deals), None
        except (PaiuteError, OSError):
            continue
        found.append(
            SavedMatch(match_id(record), record, updated, players, deals, bool(data.get("finished")), shown)
        )
    return sorted(found, key=lambda match: (-match.updated, match.id))


def find_match(directory: Path, wanted: str) -> Path:
    """The record of the saved match ``wanted``: its ID, a unique start of it, or its random
    last part (``a1b2c3``)."""
    matches = saved_matches(directory)
    exact = [match for match in matches if wanted in (match.id, match.path.stem)]
    partial = [match for match in matches if match.id.startswith(wanted) or match.id.endswith("-" + wanted)]
    for chosen in (exact, partial):
        if len(chosen) == 1:
            return chosen[0].path
        if len(chosen) > 1:
            raise InputError(
                N_("{id!r} names {n} saved matches: give more of the ID (paiute play --list)"),
                id=wanted,
                n=len(chosen),
            )
    raise InputError(
        N_("no saved match {id!r} in {path!r} (paiute play --list shows them)"),
        id=wanted,
        path=str(directory),
    )


def latest_unfinished(directory: Path) -> Path | None:
    """The most recently saved record in ``directory`` whose match has not ended."""
    unfinished = [match for match in saved_matches(directory) if not match.finished]
    return unfinished[0].path if unfinished else None


class _ResumeChance:
    """The chance of a deal rebuilt from a record: the recorded stock rebuilds (R4.6) first,
    then ``fallback``. Every recorded rebuild also shuffles a copy with ``fallback``, so that a
    seeded fallback stays in step with the match that was interrupted."""

    __slots__ = ("_fallback", "_orders")

    def __init__(self, orders: Sequence[Sequence[Card]], fallback: Chance) -> None:
        self._orders = [list(order) for order in orders]
        self._fallback = fallback

    def shuffle(self, cards: list[Card]) -> None:
        if not self._orders:
            self._fallback.shuffle(cards)
            return
        order = self._orders.pop(0)
        self._fallback.shuffle(list(cards))
        if Counter(order) != Counter(cards):
            raise RecordError(N_("a recorded stock rebuild is not the cards R4.6 moves"))
        cards[:] = order

    def below(self, n: int) -> int:
        return self._fallback.below(n)


class Session:
    """A match of ``paiute play`` in progress (see the module documentation)."""

    def __init__(self, config: PlayConfig, *, path: Path | None = None, match: Match | None = None) -> None:
        if not config.humans:
            raise PaiuteError(N_("paiute play needs at least one human seat"))
        config.rules.check_players(len(config.seats))
        self.config = config
        self.path = path
        self.finished = False
        #: The order the hand is shown in (:data:`~paiute.tui.describe.HAND_ORDERS`): chosen
        #: by the person, kept for the match (and in its play metadata).
        self.hand_order = HAND_ORDERS[0]
        # A new match is written only once a person has acted or a deal has ended: a start
        # that is aborted (an error, a quit at once) leaves no file for --resume to pick.
        self._worth_saving = False
        if match is None:
            chance: Chance = (
                SecureChance() if config.seed is None else SeededChance(_play_seed(config.seed, "dealer"))
            )
            match = Match(
                config.rules, config.names, balances=[config.chips] * len(config.seats), chance=chance
            )
        self.match = match
        self.players: list[Player | None] = [None] * len(config.seats)
        self._make_bots(max(len(match.deals) - 1, 0))

    # -- creating and resuming ----------------------------------------------------------

    @classmethod
    def new(cls, config: PlayConfig, directory: Path | None) -> Session:
        """A new match, saved under ``directory`` (``None``: not saved)."""
        path = None
        if directory is not None:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            path = directory / f"match-{stamp}-{secrets.token_hex(3)}.json"
        session = cls(config, path=path)
        session.save()
        return session

    @classmethod
    def resume(cls, path: Path, default: PlayConfig | None = None) -> Session:
        """Rebuild a saved match by replaying its record, ready to continue.

        The seats come from ``NAME.play.json``; without it, from ``default`` (the record's
        names are kept).
        """
        record = load(path)
        record.replay()  # refuse a record that breaks a rule before anything else
        meta_file = meta_path(path)
        finished = False
        hand_order: object = None
        if meta_file.is_file():
            data = _read_meta(meta_file)
            config = PlayConfig.from_json(data, record.rules)
            finished = bool(data.get("finished"))
            hand_order = data.get("hand_order")
        elif default is not None:
            seats = list(default.seats)[: len(record.players)]
            seats += [SeatSpec("", "greedy")] * (len(record.players) - len(seats))
            config = PlayConfig(
                record.rules,
                tuple(SeatSpec(name, seat.bot) for name, seat in zip(record.players, seats, strict=True)),
                default.seed,
                default.chips,
                default.hint,
            )
        else:
            raise RecordError(N_("no play metadata beside {path!r}"), path=str(path))
        if config.names != record.players:
            raise RecordError(N_("the play metadata does not name the record's players"))
        first_dealer = record.deals[0].dealer if record.deals else None
        seed = config.seed
        # The first dealer is the record's (R2.3); the match's own chance shuffles only
        # without a seed (with one, each deal has its own generator).
        chance: Chance = SecureChance() if seed is None else SeededChance(_play_seed(seed, "dealer"))
        match = Match(
            record.rules,
            record.players,
            balances=record.balances,
            pot=record.pot,
            chance=chance,
            dealer=first_dealer,
        )
        session = cls(config, path=path, match=match)
        session.finished = finished
        if hand_order in HAND_ORDERS:
            session.hand_order = str(hand_order)
        session._worth_saving = True  # its file exists: keep it current
        for index, deal_record in enumerate(record.deals):
            fallback = session._deal_chance(index)
            if seed is not None:
                # Deal the same way a live deal is dealt, to bring the generator to the point
                # the interrupted match had reached; a record from another seed is kept as it is.
                probe = Deal.new(record.rules, len(record.players), deal_record.dealer, fallback)
                if probe.deck != deal_record.deck:
                    fallback = SecureChance()
            chance_k = _ResumeChance(deal_record.rebuilds, fallback)
            deal = match.start_deal(deal_record.deck, chance=chance_k, commitment=deal_record.commitment)
            last = index == len(record.deals) - 1
            if last:
                session._make_bots(index)
            for action in deal_record.actions:
                seat = deal.current_seat
                player = session.players[seat]
                if last and seed is not None and player is not None and player.name in ("random", "greedy"):
                    # Bring a seeded bot's generator to where it was (search bots decide from
                    # their seed and the observation alone).
                    player.act(deal.observation(seat))
                match.apply(action)
        return session

    def _deal_chance(self, index: int) -> Chance:
        """The chance that shuffles deal ``index``: derived from the seed, or the match's."""
        if self.config.seed is None:
            return self.match.chance
        return SeededChance(_play_seed(self.config.seed, "deal", index))

    def _make_bots(self, index: int) -> None:
        """The bots for deal ``index``: made once, or anew each deal with a seed."""
        seed = self.config.seed
        for seat, spec in enumerate(self.config.seats):
            if spec.bot is None:
                self.players[seat] = None
            elif seed is None:
                if self.players[seat] is None:
                    self.players[seat] = make_player(spec.bot)
            else:
                _close(self.players[seat])
                self.players[seat] = make_player(spec.bot, seed=_play_seed(seed, "bot", seat, index))

    # -- the state, as the user interfaces may see it ---------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        return self.match.players

    @property
    def humans(self) -> tuple[int, ...]:
        return self.config.humans

    def is_human(self, seat: int) -> bool:
        return self.config.seats[seat].is_human

    @property
    def deal(self) -> Deal | None:
        """The current (or last) deal: for the engine's checks, never for drawing a screen."""
        return self.match.deal

    @property
    def deal_number(self) -> int:
        """How many deals have started (the current deal's number, from 1)."""
        return len(self.match.deals)

    @property
    def in_deal(self) -> bool:
        deal = self.match.deal
        return deal is not None and not deal.is_over

    @property
    def current(self) -> int | None:
        """The seat to act, or ``None`` between deals."""
        deal = self.match.deal
        return None if deal is None or deal.is_over else deal.current_seat

    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` may see of the current deal (R9); ``None`` for a spectator."""
        deal = self.match.deal
        if deal is None:
            raise PaiuteError(N_("no deal has started"))
        return deal.observation(seat)

    @property
    def last_result(self) -> DealResult | None:
        return self.match.results[-1] if self.match.results else None

    def showdown(self) -> Showdown | None:
        """What the last deal reveals once it is over (R9.3: every hand); ``None`` while it lasts."""
        deal = self.match.deal
        return None if deal is None or not deal.is_over else showdown(deal)

    def balances_before(self, deal_index: int) -> tuple[int, ...]:
        """Every balance before deal ``deal_index`` (0-based) collected its stakes."""
        if deal_index == 0:
            return self.match.initial_balances
        return self.match.results[deal_index - 1].balances

    def out_of_chips(self) -> tuple[int, ...]:
        """Seats that cannot go on: less than the stake (R8.2), or nothing left (R8.4)."""
        rules = self.match.rules
        if rules.payout == "pot":
            return tuple(seat for seat, chips in enumerate(self.match.balances) if chips < rules.stake)
        return tuple(seat for seat, chips in enumerate(self.match.balances) if chips <= 0)

    @property
    def match_over(self) -> bool:
        """The match has ended: between deals, with a seat out of chips."""
        return not self.in_deal and bool(self.out_of_chips())

    # -- playing --------------------------------------------------------------------------

    def start_deal(self) -> None:
        if self.match_over:
            raise PaiuteError(N_("the match is over: a player is out of chips"))
        index = len(self.match.deals)
        self._make_bots(index)
        self.match.start_deal(chance=self._deal_chance(index))
        self.save()

    def why(self, action: Action) -> IllegalActionError | None:
        """Why the seat to act may not take ``action`` now (the rule and the reason)."""
        deal = self.match.deal
        if deal is None:
            return IllegalActionError("R7.3", N_("no deal is in progress"), str(action))
        return deal.why_illegal(action)

    def apply(self, action: Action) -> Event:
        """Apply the current seat's action; an illegal one raises and changes nothing."""
        error = self.why(action)
        if error is not None:
            raise error
        seat = self.current
        event = self.match.apply(action)
        if event.ends_deal:
            if self.out_of_chips():
                self.finished = True
            self.save()
        elif seat is not None and self.is_human(seat) and not event.action.kind.is_draw:
            self.save()
        return event

    def bot_action(self) -> Action:
        """What the bot to act chooses (it sees only its observation, R9)."""
        seat = self.current
        if seat is None:
            raise PaiuteError(N_("no deal is in progress"))
        player = self.players[seat]
        if player is None:
            raise PaiuteError(N_("seat {seat} is not a bot"), seat=seat)
        return player.act(self.observation(seat))

    def hint_seed(self) -> int:
        """The seed of a hint now: the position's (the deal and the move), as the review of the
        deal seeds that decision (:func:`~paiute.analysis.hint.position_seed`, review seed 0), so
        the hint and the review give the same figures. The hint has its own chance, so asking
        for one changes nothing the bots do."""
        deal = self.match.deal
        if deal is None:
            raise PaiuteError(N_("no deal has started"))
        return position_seed(0, len(self.match.deals) - 1, len(deal.actions))

    def hint(self, seat: int, *, seed: int | None = None) -> Hint:
        """The best move in ``seat``'s place and why (from its observation only, R9)."""
        return hint(
            self.observation(seat),
            playouts=self.config.hint,
            budget_ms=HINT_BUDGET_MS,
            seed=self.hint_seed() if seed is None else seed,
        )

    def close(self) -> None:
        """Stop any bot worker processes (the match itself stays saved)."""
        for player in self.players:
            _close(player)

    # -- saving ---------------------------------------------------------------------------

    @property
    def saved_path(self) -> Path | None:
        """The record file, once written (a new match is written at its first person's turn)."""
        return self.path if self.path is not None and self._worth_saving else None

    @property
    def kept_on_leaving(self) -> bool:
        """Whether leaving now keeps the match for ``--resume``: it has a file to be written
        to, and something to keep (a person has acted, or a deal has ended)."""
        return self.path is not None and (self._worth_saving or self._has_progress())

    @property
    def match_id(self) -> str | None:
        """The ID that ``paiute play --resume ID`` takes, once the match is written."""
        path = self.saved_path
        return None if path is None else match_id(path)

    def _has_progress(self) -> bool:
        """A deal has ended, or a person has acted: something a crash would lose."""
        if self.match.results:
            return True
        deal = self.match.deal
        return deal is not None and any(self.is_human(event.seat) for event in deal.events)

    def save(self) -> None:
        """Write the record and the play metadata (atomically); nothing without a path, and
        nothing for a new match until there is something to lose."""
        if self.path is None:
            return
        if not self._worth_saving:
            if not self._has_progress():
                return
            self._worth_saving = True
        save(Record.from_match(self.match), self.path)
        summary = {"deals": len(self.match.deals), "balances": list(self.match.balances)}
        data = {
            "format": META_FORMAT,
            **self.config.to_json(),
            "finished": self.finished,
            "summary": summary,
            "hand_order": self.hand_order,
        }
        _write_atomic(meta_path(self.path), json.dumps(data, ensure_ascii=False) + "\n")


def _close(player: Player | None) -> None:
    """Stop a bot's worker processes, if it has any (``ismcts:workers=N``)."""
    close = getattr(player, "close", None)
    if callable(close):
        close()


def _write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
