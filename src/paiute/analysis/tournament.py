"""Duplicate tournaments between players: seat-rotated deals over the same shuffled packs.

A *board* is one shuffled and cut pack, a dealer and a seed for the stock rebuilds (R2.4,
R4.6). The seats are filled from the bots in turn (two bots at four seats sit ``A B A B``) and
every distinct *seating* of that line-up (every permutation, or only the rotations) plays the
board: the same cards come to the same seats whoever sits there, so the luck of the deal
cancels out between the bots. Each deal is a fresh :class:`~paiute.match.Match` with every
balance at 0, so the chips a seat won are its balance at the end (a dead deal, R8.5, leaves
every seat down its stake, with the pot carried to no one).

Every board depends only on the seed and its number, and results are gathered in board order,
so the same seed gives the same results whatever the number of workers or the backend.

>>> from paiute import RuleSet
>>> result = run_tournament(["random", "random:seed=5"], deals=3, seed=1, workers=1,
...                         rules=RuleSet(max_rebuilds=0))
>>> result.seatings, len(result.boards), result.deals
(((0, 1), (1, 0)), 3, 6)
>>> [bot.label for bot in result.standings], sum(bot.chips for bot in result.standings) <= 0
(['random', 'random:seed=5'], True)
"""

from __future__ import annotations

import contextlib
import itertools
import math
import os
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar, overload

from paiute.cards import Card, pack
from paiute.chance import SeededChance, derive_seed
from paiute.combos import Category
from paiute.errors import N_
from paiute.match import Match
from paiute.parallel import BACKENDS, ParallelError, StopFlag, default_workers, parallel_map
from paiute.players import make_player, play_turn, prepare_player
from paiute.record import Record
from paiute.rules import MAX_SEATS, RuleSet

__all__ = [
    "BACKENDS",
    "SEATINGS",
    "BoardResult",
    "BotStanding",
    "DealSummary",
    "StopFlag",
    "TournamentConfig",
    "TournamentError",
    "TournamentResult",
    "confidence_interval",
    "default_workers",
    "margin",
    "parallel_map",
    "play_board",
    "rate_ladder",
    "run_tournament",
    "seating_count",
    "seatings",
]

#: How the line-up is re-seated on each board: every distinct permutation, or the rotations.
SEATINGS = ("permutations", "rotations")

T = TypeVar("T")
R = TypeVar("R")


class TournamentError(ParallelError):
    """A tournament that cannot run: bad settings or a missing optional dependency."""


# -- the boards -------------------------------------------------------------------------------


def seatings(bots: int, players: int, mode: str = "permutations") -> tuple[tuple[int, ...], ...]:
    """The seatings of a board: for each, the bot (by index) at each seat.

    The seats are filled from the bots in turn, then re-seated in every distinct way.

    >>> seatings(2, 4)
    ((0, 1, 0, 1), (0, 1, 1, 0), (0, 0, 1, 1), (1, 0, 0, 1), (1, 0, 1, 0), (1, 1, 0, 0))
    >>> seatings(3, 3, "rotations")
    ((0, 1, 2), (1, 2, 0), (2, 0, 1))
    """
    lineup = _lineup(bots, players, mode)
    if mode == "rotations":
        candidates: Iterator[tuple[int, ...]] = (lineup[i:] + lineup[:i] for i in range(players))
    else:
        candidates = itertools.permutations(lineup)
    return tuple(dict.fromkeys(candidates))


def _lineup(bots: int, players: int, mode: str) -> tuple[int, ...]:
    """The seats filled from the bots in turn, after the checks that bound the seatings: a
    table of more than MAX_SEATS (R2.1) would have billions of them."""
    if mode not in SEATINGS:
        raise TournamentError(f"unknown seating {mode!r} (seatings: {', '.join(SEATINGS)})")
    if bots < 1 or players < bots:
        raise TournamentError(f"{bots} bots need at least {bots} seats, not {players}")
    if players > MAX_SEATS:
        raise TournamentError(f"R2.1 {players} players: a table has at most {MAX_SEATS} seats")
    return tuple(seat % bots for seat in range(players))


def seating_count(bots: int, players: int, mode: str = "permutations") -> int:
    """How many seatings :func:`seatings` gives, counted without listing them.

    >>> seating_count(2, 4), seating_count(5, 5), seating_count(5, 5, "rotations"), seating_count(2, 4, "rotations")
    (6, 120, 5, 2)
    """
    lineup = _lineup(bots, players, mode)
    if mode == "rotations":
        return next(p for p in range(1, players + 1) if lineup[p:] + lineup[:p] == lineup)
    count = math.factorial(players)
    for bot in range(bots):
        count //= math.factorial(lineup.count(bot))
    return count


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """Everything a worker needs to play any board (small, so it travels with each task)."""

    bots: tuple[str, ...]
    labels: tuple[str, ...]
    players: int
    seed: int
    rules: RuleSet
    seating: str = "permutations"
    records: bool = False


@dataclass(frozen=True, slots=True)
class DealSummary:
    """One deal of a board: who sat where, the chips each seat won, the calls (seat, category
    name) and the winners (R8.1, R8.3)."""

    seating: tuple[int, ...]
    chips: tuple[int, ...]
    pot: int
    dead: bool
    winners: tuple[int, ...]
    calls: tuple[tuple[int, str], ...]
    actions: int


@dataclass(frozen=True, slots=True)
class BoardResult:
    """A board played in every seating: its deck (top first), dealer and deals. ``records``
    holds each deal's ``paiute-record/1`` text until the tournament writes it out."""

    index: int
    deck: tuple[Card, ...]
    dealer: int
    deals: tuple[DealSummary, ...]
    records: tuple[str, ...] = ()


def play_board(config: TournamentConfig, index: int) -> BoardResult:
    """Play board ``index`` in every seating; the same arguments always give the same result
    (given bots that are repeatable for a seed)."""
    rules, players = config.rules, config.players
    chance = SeededChance(derive_seed("paiute-tournament", config.seed, index, "deck"))
    deck = pack(rules.jokers)  # R2.4: shuffle and cut, as Deal.new does
    chance.shuffle(deck)
    cut = chance.below(len(deck))
    deck = deck[cut:] + deck[:cut]
    dealer = chance.below(players)
    rebuild_seed = derive_seed("paiute-tournament", config.seed, index, "rebuilds")
    bot_seeds = [
        derive_seed("paiute-tournament", config.seed, index, "seat", seat) for seat in range(players)
    ]
    deals: list[DealSummary] = []
    records: list[str] = []
    for seating in seatings(len(config.bots), players, config.seating):
        names = [config.labels[bot] for bot in seating]
        match = Match(rules, names, balances=[0] * players, dealer=dealer, chance=SeededChance(rebuild_seed))
        deal = match.start_deal(deck, chance=SeededChance(rebuild_seed))
        seated = [make_player(config.bots[bot], seed=bot_seeds[seat]) for seat, bot in enumerate(seating)]
        for player in seated:
            # A tournament measures the bots themselves: a time-budgeted search that would play
            # greedy's moves while its kernels load in this worker (no stall at a table) waits.
            prepare_player(player)
        while not deal.is_over:
            play_turn(deal, seated, match.apply)  # type: ignore[arg-type]
        outcome = deal.outcome
        assert outcome is not None
        calls = tuple((call.seat, call.value.category.value) for call in outcome.calls)
        deals.append(
            DealSummary(
                seating, match.balances, match.pot, outcome.dead, outcome.winners, calls, len(deal.actions)
            )
        )
        if config.records:
            records.append(Record.from_match(match).dumps())
    return BoardResult(index, tuple(deck), dealer, tuple(deals), tuple(records))


def _play_board_task(task: tuple[TournamentConfig, int]) -> BoardResult:
    return play_board(*task)


# -- running tasks: in-process, local processes, Ray --------------------------------------------


# -- results ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BotStanding:
    """One bot's results, by the seats it played: ``deals`` counts a deal once at each of the
    bot's seats (two bots at four seats play two seats of every deal each), and the chips, wins
    and rates are per such seat (``paiute tournament``'s column Seats).

    ``ci95`` is the 95% confidence interval of ``chips_per_deal`` from the spread of the bot's
    per-board means (the boards are the independent samples of a duplicate tournament);
    ``None`` with fewer than two boards. ``rating`` is an openskill Plackett-Luce rating
    (``mu``, ``sigma``, ``ordinal`` = mu - 3 sigma) from every deal that was not dead.
    """

    label: str
    spec: str
    deals: int
    chips: int
    chips_per_deal: float
    ci95: tuple[float, float] | None
    wins: int
    win_rate: float
    calls: dict[str, int]
    rating: dict[str, float]

    def to_json(self) -> dict[str, object]:
        return {
            "bot": self.label,
            "spec": self.spec,
            "deals": self.deals,
            "chips": self.chips,
            "chips_per_deal": self.chips_per_deal,
            "ci95": list(self.ci95) if self.ci95 is not None else None,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "calls": dict(self.calls),
            "rating": dict(self.rating),
        }


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """A finished (or interrupted) tournament: its settings, every board played, in board
    order, and each bot's standing (in the order the bots were given)."""

    config: TournamentConfig
    seatings: tuple[tuple[int, ...], ...]
    boards_requested: int
    boards: tuple[BoardResult, ...]
    standings: tuple[BotStanding, ...]
    interrupted: bool = False
    elapsed: float = 0.0
    records_path: str | None = None
    workers: int | None = field(default=None, compare=False)

    @property
    def deals(self) -> int:
        return sum(len(board.deals) for board in self.boards)

    @property
    def dead_deals(self) -> int:
        return sum(deal.dead for board in self.boards for deal in board.deals)

    @property
    def dead_rate(self) -> float:
        return self.dead_deals / self.deals if self.deals else 0.0

    def to_json(self) -> dict[str, object]:
        """The results as JSON data (no timings: the same seed gives the same object)."""
        config = self.config
        return {
            "bots": [standing.to_json() for standing in self.standings],
            "players": config.players,
            "seating": config.seating,
            "seatings": len(self.seatings),
            "boards": len(self.boards),
            "boards_requested": self.boards_requested,
            "deals": self.deals,
            "dead_deals": self.dead_deals,
            "dead_rate": self.dead_rate,
            "seed": config.seed,
            "rules": config.rules.to_dict(),
            "interrupted": self.interrupted,
        }


def _openskill() -> Any:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise TournamentError("ratings need openskill: pip install 'paiute[sim]'") from None
    return PlackettLuce


def _standings(config: TournamentConfig, boards: Sequence[BoardResult]) -> tuple[BotStanding, ...]:
    count = len(config.bots)
    model = _openskill()()
    ratings = [model.rating(name=label) for label in config.labels]
    deals = [0] * count
    chips = [0] * count
    wins = [0] * count
    calls = [dict.fromkeys((category.value for category in Category), 0) for _ in range(count)]
    board_means: list[list[float]] = [[] for _ in range(count)]
    for board in boards:
        board_chips = [0] * count
        board_seats = [0] * count
        for deal in board.deals:
            for seat, bot in enumerate(deal.seating):
                board_chips[bot] += deal.chips[seat]
                board_seats[bot] += 1
                wins[bot] += seat in deal.winners
            for seat, category in deal.calls:
                calls[deal.seating[seat]][category] += 1
            if not deal.dead:
                ratings = _rate(model, ratings, deal)
        for bot in range(count):
            deals[bot] += board_seats[bot]
            chips[bot] += board_chips[bot]
            if board_seats[bot]:
                board_means[bot].append(board_chips[bot] / board_seats[bot])
    standings = []
    for bot in range(count):
        mean = chips[bot] / deals[bot] if deals[bot] else 0.0
        rating = ratings[bot]
        standings.append(
            BotStanding(
                config.labels[bot],
                config.bots[bot],
                deals[bot],
                chips[bot],
                mean,
                confidence_interval(mean, board_means[bot]),
                wins[bot],
                wins[bot] / deals[bot] if deals[bot] else 0.0,
                calls[bot],
                {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal()},
            )
        )
    return tuple(standings)


def rate_ladder(
    results: Sequence[TournamentResult], names: dict[str, str] | None = None
) -> dict[str, dict[str, float]]:
    """One openskill Plackett-Luce ladder over several tournaments: every deal that was not
    dead, tournament after tournament in board order, rated as :func:`run_tournament` rates
    the deals of one (the same model and updates), so that bots which never met at a table
    (``easy`` and ``expert`` through ``medium`` and ``hard``) land on one scale. A bot is
    named by its label, or by ``names[label]`` when given (several specs standing for one
    player). Returns ``{name: {"mu", "sigma", "ordinal"}}``."""
    model = _openskill()()
    order: list[str] = []
    for result in results:
        for label in result.config.labels:
            name = (names or {}).get(label, label)
            if name not in order:
                order.append(name)
    ratings = [model.rating(name=name) for name in order]
    for result in results:
        index = [order.index((names or {}).get(label, label)) for label in result.config.labels]
        for board in result.boards:
            for deal in board.deals:
                if not deal.dead:
                    ratings = _rate(
                        model, ratings, replace(deal, seating=tuple(index[b] for b in deal.seating))
                    )
    return {
        name: {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal()}
        for name, rating in zip(order, ratings, strict=True)
    }


def confidence_interval(mean: float, samples: Sequence[float]) -> tuple[float, float] | None:
    """``mean`` ± 1.96 standard errors of the per-board means ``samples`` (95%); ``None`` with
    fewer than two boards."""
    n = len(samples)
    if n < 2:
        return None
    centre = sum(samples) / n
    spread = math.sqrt(sum((x - centre) ** 2 for x in samples) / (n - 1))
    half = 1.96 * spread / math.sqrt(n)
    return (mean - half, mean + half)


def margin(
    result: TournamentResult, bot: int = 0, other: int = 1
) -> tuple[float, tuple[float, float] | None]:
    """Bot ``bot``'s chips per deal less bot ``other``'s, with a 95% interval from the spread of
    the per-board differences (paired: both played the same boards, so the luck of the cards
    cancels out of each board's difference; ``None`` with fewer than two boards).

    >>> from paiute import RuleSet
    >>> result = run_tournament(["greedy", "random"], deals=4, players=2, seed=3, workers=1,
    ...                         rules=RuleSet(max_rebuilds=0))
    >>> difference, interval = margin(result)
    >>> interval is not None and interval[0] <= difference <= interval[1]
    True
    """
    differences: list[float] = []
    for board in result.boards:
        chips = [0, 0]
        seats = [0, 0]
        for deal in board.deals:
            for seat, who in enumerate(deal.seating):
                if who in (bot, other):
                    side = 0 if who == bot else 1
                    chips[side] += deal.chips[seat]
                    seats[side] += 1
        if seats[0] and seats[1]:
            differences.append(chips[0] / seats[0] - chips[1] / seats[1])
    mean = sum(differences) / len(differences) if differences else 0.0
    return mean, confidence_interval(mean, differences)


def _rate(model: Any, ratings: list[Any], deal: DealSummary) -> list[Any]:
    """Rank the seats by chips won (ties share a rank); a bot at several seats takes the mean
    of its seats' new ratings."""
    teams = [[ratings[bot]] for bot in deal.seating]
    new = model.rate(teams, ranks=[-chips for chips in deal.chips])
    updated = list(ratings)
    for bot in set(deal.seating):
        mine = [team[0] for team, seated in zip(new, deal.seating, strict=True) if seated == bot]
        mu = sum(r.mu for r in mine) / len(mine)
        sigma = sum(r.sigma for r in mine) / len(mine)
        updated[bot] = model.rating(mu=mu, sigma=sigma, name=ratings[bot].name)
    return updated


# -- the tournament ---------------------------------------------------------------------------


def _labels(bots: Sequence[str]) -> tuple[str, ...]:
    labels: list[str] = []
    for spec in bots:
        label = spec.strip()
        number = 2
        while label in labels:
            label = f"{spec.strip()}#{number}"
            number += 1
        labels.append(label)
    return tuple(labels)


class _Boards(Sequence[tuple[TournamentConfig, int]]):
    """The tasks ``(config, board)`` of a tournament, made on demand."""

    def __init__(self, config: TournamentConfig, count: int) -> None:
        self.config, self.size = config, count

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, index: int) -> tuple[TournamentConfig, int]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[tuple[TournamentConfig, int]]: ...
    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.size))]
        if not -self.size <= index < self.size:
            raise IndexError(index)
        return self.config, index % self.size


class _RecordWriter:
    """Writes each board's records, in board order, to a temporary file beside ``path`` and
    moves it into place at the end (a crash leaves the old file or none)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        try:  # the folder must exist: a mistyped path never makes a chain of new folders
            handle, self._temporary = tempfile.mkstemp(
                dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp"
            )
        except OSError as error:
            raise TournamentError(
                N_("cannot write {path!r}: {error}"), path=str(self.path), error=error.strerror
            ) from None
        self._stream = os.fdopen(handle, "w", encoding="utf-8")
        self._waiting: dict[int, tuple[str, ...]] = {}
        self._next = 0

    def add(self, board: BoardResult) -> None:
        self._waiting[board.index] = board.records
        while self._next in self._waiting:
            self._write(self._waiting.pop(self._next))
            self._next += 1

    def _write(self, records: tuple[str, ...]) -> None:
        self._stream.write("".join(record + "\n" for record in records))

    def close(self) -> str:
        for index in sorted(self._waiting):  # after an interruption: what finished, in order
            self._write(self._waiting.pop(index))
        self._stream.close()
        os.chmod(self._temporary, 0o644)
        os.replace(self._temporary, self.path)
        return str(self.path)

    def discard(self) -> None:
        self._stream.close()
        with contextlib.suppress(OSError):
            os.unlink(self._temporary)


def run_tournament(
    bots: Sequence[str],
    *,
    deals: int,
    players: int | None = None,
    seed: int | None = None,
    workers: int | None = None,
    rules: RuleSet | None = None,
    seating: str = "permutations",
    backend: str = "local",
    address: str | None = None,
    records: str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    stop: StopFlag | None = None,
) -> TournamentResult:
    """Play a duplicate tournament between ``bots`` (player specs, ``"name:key=value"``).

    ``deals`` is the number of *boards*; each is played once per seating, so the tournament
    plays ``deals * len(result.seatings)`` deals. ``players`` seats (default: one per bot) are
    filled from the bots in turn. ``seed`` (default: a random one, kept in the result) fixes
    every deck, rebuild and bot seed. ``workers`` and ``backend``: see :func:`parallel_map`.
    ``records``: a file to write every deal to, one ``paiute-record/1`` record per line in
    board then seating order. ``progress(deals_done, deals_total)`` is called after each
    board. Setting ``stop`` or pressing Ctrl-C (KeyboardInterrupt) ends the tournament early:
    the boards that finished are kept and ``result.interrupted`` is true.

    Local workers are fresh processes (``forkserver``): a script that runs a tournament with
    more than one worker needs the ``if __name__ == "__main__":`` guard, and its bots must be
    registered when :mod:`paiute.players` is imported (use ``workers=1`` for others) or named
    by the dotted path of a factory (``"mylab.agent.make:seed=3"``) that every worker can
    import: the spec travels as text and each worker makes its own players from it.
    """
    rules = rules if rules is not None else RuleSet()
    bots = tuple(spec.strip() for spec in bots)
    if len(bots) < 2:
        raise TournamentError(f"a tournament needs at least two bots, got {len(bots)}")
    if deals < 1:
        raise TournamentError(f"deals must be at least 1, not {deals}")
    players = len(bots) if players is None else players
    if players < len(bots):
        raise TournamentError(f"{len(bots)} bots need at least {len(bots)} seats, not {players}")
    rules.check_players(players)
    for spec in bots:
        make_player(spec, seed=0)  # an unknown name or option fails now, not in a worker
    _openskill()  # and so does a missing rating library
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    config = TournamentConfig(bots, _labels(bots), players, seed, rules, seating, records is not None)
    seated = seatings(len(bots), players, seating)
    total = deals * len(seated)
    writer = _RecordWriter(records) if records is not None else None
    finished: dict[int, BoardResult] = {}
    interrupted = False
    start = time.monotonic()
    try:
        tasks = _Boards(config, deals)  # made as they are sent: --deals may be large
        with contextlib.closing(
            parallel_map(
                _play_board_task, tasks, workers=workers, backend=backend, address=address, stop=stop
            )
        ) as results:
            try:
                for index, board in results:
                    if writer is not None:
                        writer.add(board)
                    finished[index] = replace(board, records=())
                    if progress is not None:
                        progress(len(finished) * len(seated), total)
            except KeyboardInterrupt:
                interrupted = True
        interrupted = interrupted or len(finished) < deals
        saved = writer.close() if writer is not None else None
    except BaseException:
        if writer is not None:
            writer.discard()
        raise
    boards = tuple(finished[index] for index in sorted(finished))
    if backend == "local":
        workers = min(workers or default_workers(), deals)
    return TournamentResult(
        config,
        seated,
        deals,
        boards,
        _standings(config, boards),
        interrupted,
        time.monotonic() - start,
        saved,
        workers,
    )
