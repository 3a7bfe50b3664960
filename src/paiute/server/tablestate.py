"""One table's state, rebuilt from its stored events (:class:`TableState`).

A table is the log of its events (version 1, 2, ...). :meth:`TableState.apply` replays one
stored event; the server's memory is always the replay of what the database holds, whether the
events were just written by this process, by another process sharing the database, or read
back after a restart. Replaying takes no randomness at all: the orders chance decided are in
the events' server-only ``secret`` part (:class:`~paiute.server.proofs.QueuedChance`). Nothing
here does I/O, and nothing plans: the server holds each table as a
:class:`~paiute.server.table.LiveTable`, this state with the plans for new events.
"""

from __future__ import annotations

from collections import Counter, deque

from paiute.actions import Action
from paiute.analysis.lesson import Step
from paiute.cards import Card
from paiute.chance import RecordedChance
from paiute.deal import Deal, Phase
from paiute.errors import PaiuteError
from paiute.fairness import RebuildCommitment, cut
from paiute.match import Match
from paiute.rules import RuleSet
from paiute.server.deals import SECURE_DEALS, DealSource
from paiute.server.lesson import LESSON_DEALS
from paiute.server.proofs import DealProof, Pending, QueuedChance
from paiute.server.tabledata import CHAT_KEPT, HintPolicy, Seat, TableConfig, TableEvent, hint_policy

__all__ = ["TableState"]


class TableState:
    """The state of one table: seats, status, the match, the event log and the chat."""

    def __init__(
        self,
        table_id: str,
        config: TableConfig,
        created: float = 0.0,
        *,
        deals: DealSource = SECURE_DEALS,
    ) -> None:
        self.id = table_id
        # Where the plans' chance comes from (R10.1; seeded only in tests; a lesson's is its deal).
        self.deals: DealSource = LESSON_DEALS if config.lesson else deals
        #: The step of a lesson table's coach (paiute.server.lesson), None at other tables.
        self.lesson: Step | None = Step.WELCOME if config.lesson else None
        self.config = config
        self.created = created
        self.seats = [Seat() for _ in range(config.seats)]
        self.status = "waiting"
        self.version = 0
        self.events: list[TableEvent] = []
        self.match: Match | None = None
        self.proofs: list[DealProof] = []  # one per started deal, in order
        self.chat: deque[TableEvent] = deque(maxlen=CHAT_KEPT)
        self.clients: dict[tuple[str, str], int] = {}  # (token hash, client id) -> version
        self.requests: dict[tuple[str, str], str] = {}  # (token hash, client id) -> its digest
        self.chat_lines = 0  # chat events stored (CHAT_STORED)
        self.chat_said: Counter[int] = Counter()  # chat events stored per seat (CHAT_PER_SEAT)
        self.last_actions: dict[int, TableEvent] = {}  # each seat's last action (the views)
        self.turn_started = created  # when the seat to act now began to (the clock)
        self.changed = created  # when the last event was stored
        # What is left of each seat's time bank (spent from stored event times: a replay after
        # a restart gives the same banks).
        self.banks = [float(config.bank_seconds)] * config.seats
        self.autoplay: dict[int, str] = {}  # person seats the bot plays for now, and why
        self.rematch: str | None = None  # the id of the rematch table, once one is made
        # The moment a hint is worked out for (its seed and cache key): the version of the last
        # event that was not a hint announcement, so a hint asked again is the same hint.
        self.hint_moment = 0
        self.hints_asked: dict[int, int] = {}  # seat -> the moment its last ask was announced
        self._host: str | None = None  # the creator's token hash (the first to sit down)
        self._pending: Pending | None = None
        self._chance: QueuedChance | None = None
        self._tokens: dict[str, int] = {}  # every token hash that holds a seat -> the seat
        self.relinks: dict[int, int] = {}  # fresh seat links given to each seat's holder

    # -- what the table is now -------------------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        return self.config.rules

    @property
    def deal(self) -> Deal | None:
        return None if self.match is None else self.match.deal

    @property
    def deal_number(self) -> int | None:
        """The current (or last) deal, counted from 1."""
        return None if self.match is None or not self.match.deals else len(self.match.deals)

    @property
    def finished_deals(self) -> int:
        return 0 if self.match is None else len(self.match.results)

    @property
    def cutter(self) -> int | None:
        """The seat that must cut now (R2.4), None once the cut is made."""
        pending = self._pending
        if pending is None or self.status != "cut" or pending.proof.position is not None:
            return None
        return pending.cutter

    @property
    def pending_proof(self) -> DealProof | None:
        """The commitment of the deal being cut or played (its hashes may be shown)."""
        if self.status == "cut" and self._pending is not None:
            return self._pending.proof
        if self.status == "playing" and self.proofs:
            return self.proofs[-1]
        return None

    @property
    def dealer(self) -> int | None:
        """The dealer now: of the deal being cut (R2.4) or played, else of the last deal."""
        if self.status == "cut" and self._pending is not None:
            return self._pending.dealer
        deal = self.deal
        return None if deal is None else deal.dealer

    def names(self) -> list[str | None]:
        return [seat.name for seat in self.seats]

    def seat_of(self, token_hash: str | None) -> int | None:
        """The seat a token (its hash) holds, or None."""
        return None if token_hash is None else self._tokens.get(token_hash)

    def actor(self) -> int | None:
        """The seat whose move the table waits for: the cutter (R2.4) or the seat to play."""
        if self.status == "cut":
            return self.cutter
        deal = self.deal
        if self.status == "playing" and deal is not None and not deal.is_over:
            return deal.current_seat
        return None

    def is_bot(self, seat: int) -> bool:
        return self.seats[seat].bot is not None

    def bot_plays(self, seat: int) -> bool:
        """Whether the server plays ``seat``: a bot's seat, or a person's handed to the bot."""
        return self.is_bot(seat) or seat in self.autoplay

    @property
    def host(self) -> int | None:
        """The host: the table's creator while they hold their seat; after they left, the
        first seat a person holds (None: nobody is seated)."""
        creator = self.seat_of(self._host)
        if creator is not None:
            return creator
        return next((index for index, held in enumerate(self.seats) if held.taken and held.bot is None), None)

    def persons(self) -> list[int]:
        """The seats held by people (not bots)."""
        return [index for index, seat in enumerate(self.seats) if seat.taken and seat.bot is None]

    def people_playing(self, seat: int | None = None) -> int:
        """The people who play at the table now: the persons' seats the bot does not play, and
        ``seat`` (the one asking) whoever plays it."""
        return sum(1 for index in self.persons() if index not in self.autoplay or index == seat)

    def hints_for(self, seat: int | None) -> HintPolicy:
        """Whether ``seat`` (None: a spectator) may ask for a hint now, and why (hint_policy)."""
        return hint_policy(self.config, self.people_playing(seat))

    def nobody_left(self) -> bool:
        """Whether every person's seat is played by the bot: nobody is there to play with."""
        return all(seat in self.autoplay for seat in self.persons())

    def deadline(self) -> float | None:
        """When the clock of the person to act runs out (its turn time, then its time bank)."""
        seconds = self.config.turn_seconds
        actor = self.actor()
        if seconds is None or actor is None or self.bot_plays(actor):
            return None
        return self.turn_started + seconds + self.banks[actor]

    def _spend_bank(self, seat: int | None, now: float) -> None:
        """A turn (or cut) of ``seat`` ended at ``now``: time past turn_seconds comes off its bank."""
        seconds = self.config.turn_seconds
        if seconds is None or seat is None:
            return
        over = now - self.turn_started - seconds
        if over > 0:
            self.banks[seat] = max(0.0, self.banks[seat] - over)

    def is_finished(self, number: int) -> bool:
        """Whether deal ``number`` (from 1) has ended."""
        return 1 <= number <= self.finished_deals

    # -- replaying stored events -----------------------------------------------------------

    def apply(self, event: TableEvent) -> None:
        """Replay one stored event (the next version); a corrupt log raises PaiuteError."""
        if event.version != self.version + 1:
            raise PaiuteError(f"table {self.id}: event {event.version} after version {self.version}")
        handler = getattr(self, f"_on_{event.type}", None)
        if handler is None:
            raise PaiuteError(f"table {self.id}: unknown event type {event.type!r}")
        handler(event)
        if event.type != "hint":
            self.hint_moment = event.version
        number = event.data.get("deal")
        event.deal = number if isinstance(number, int) else self.deal_number
        self.version = event.version
        self.events.append(event)
        self.changed = event.created
        client = event.secret.get("client")
        if client is not None:
            self.clients[(client["actor"], client["id"])] = event.version
            if "digest" in client:
                self.requests[(client["actor"], client["id"])] = client["digest"]

    def _on_joined(self, event: TableEvent) -> None:
        assert event.seat is not None
        token = event.secret.get("token")
        self.seats[event.seat] = Seat(event.data["name"], token, None, event.secret.get("account"))
        if token is not None:
            self._tokens[token] = event.seat
            if self._host is None:
                self._host = token  # the creator sits down first

    def _on_left(self, event: TableEvent) -> None:
        assert event.seat is not None
        # Every token of the seat goes: the one it was taken with and the fresh seat links.
        for token in [token for token, seat in self._tokens.items() if seat == event.seat]:
            del self._tokens[token]
        self.relinks.pop(event.seat, None)
        self.seats[event.seat] = Seat()

    def _on_relinked(self, event: TableEvent) -> None:
        assert event.seat is not None
        self._tokens[event.secret["token"]] = event.seat
        self.relinks[event.seat] = self.relinks.get(event.seat, 0) + 1

    def _on_started(self, event: TableEvent) -> None:
        for key, spec in event.data["bots"].items():
            seat = int(key)
            self.seats[seat] = Seat(event.data["names"][seat], None, spec)
        names = [seat.name or f"Seat {index + 1}" for index, seat in enumerate(self.seats)]
        self.match = Match(
            self.rules,
            names,
            balances=[self.config.chips] * len(names),
            chance=RecordedChance(()),  # every shuffle is decided in a plan, never drawn here
            dealer=event.data["dealer"],
        )

    def _on_commitment(self, event: TableEvent) -> None:
        order = tuple(Card.parse(text) for text in event.secret["order"])
        proof = DealProof(event.data["sha256"], event.secret["salt"], order)
        data = event.data
        self._pending = Pending(data["deal"], data["dealer"], data["cutter"], proof)
        self.status = "cut"
        self.turn_started = event.created

    def _on_cut(self, event: TableEvent) -> None:
        assert self._pending is not None
        self._pending.proof.position = event.data["position"]
        self._spend_bank(event.seat, event.created)

    def _on_deal(self, event: TableEvent) -> None:
        assert self.match is not None
        assert self._pending is not None
        proof = self._pending.proof
        assert proof.position is not None
        self._chance = QueuedChance()
        self.match.start_deal(cut(proof.shuffled, proof.position), chance=self._chance)
        self.proofs.append(proof)
        self._pending = None
        self.last_actions.clear()
        self.status = "playing"
        self.turn_started = event.created

    def _on_action(self, event: TableEvent) -> None:
        assert self.match is not None
        assert self._chance is not None
        rebuild = event.secret.get("rebuild")
        if rebuild is not None:
            order = tuple(Card.parse(text) for text in rebuild["order"])
            self._chance.push(order)
            made = RebuildCommitment(event.data["rebuild"]["sha256"], rebuild["salt"], order)
            self.proofs[-1].rebuilds.append(made)
        event.engine = self.match.apply(Action.parse(event.data["action"]))
        assert event.seat is not None
        self.last_actions[event.seat] = event
        deal = self.match.deal
        assert deal is not None
        if deal.phase is Phase.DRAW or deal.is_over:  # the turn ended (and a new one began)
            self._spend_bank(event.seat, event.created)
            self.turn_started = event.created

    def _on_deal_over(self, event: TableEvent) -> None:
        self.status = "deal_over"

    def _on_timeout(self, event: TableEvent) -> None:
        assert event.seat is not None
        self.banks[event.seat] = 0.0  # the turn time and the whole bank are spent

    def _on_autoplay(self, event: TableEvent) -> None:
        assert event.seat is not None
        self.autoplay[event.seat] = event.data["reason"]
        if self.actor() == event.seat:
            self.turn_started = event.created

    def _on_returned(self, event: TableEvent) -> None:
        assert event.seat is not None
        self.autoplay.pop(event.seat, None)
        if self.actor() == event.seat:
            self.turn_started = event.created  # the clock starts afresh for the one who is back

    def _on_hint(self, event: TableEvent) -> None:
        assert event.seat is not None
        self.hints_asked[event.seat] = self.hint_moment

    def _on_rematch(self, event: TableEvent) -> None:
        self.rematch = event.data["table"]

    def _on_lesson(self, event: TableEvent) -> None:
        self.lesson = Step(event.data["step"])

    def _on_chat(self, event: TableEvent) -> None:
        self.chat.append(event)
        self.chat_lines += 1
        if event.seat is not None:
            self.chat_said[event.seat] += 1

    def _on_closed(self, event: TableEvent) -> None:
        self.status = "closed"
