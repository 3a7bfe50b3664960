"""One table in memory: pure state rebuilt from its stored events, and plans for new events.

A table is the log of its events (version 1, 2, ...). :meth:`LiveTable.apply` replays one stored
event; the server's memory is always the replay of what the database holds, whether the events
were just written by this process, by another process sharing the database, or read back after
a restart. Nothing here does I/O.

To accept a request the service asks for a *plan* (``plan_action``, ``plan_cut``...): a list
of :class:`Draft` events worked out on a copy of the deal, so the table itself is untouched
until the drafts are committed. Chance enters only in plans (R10.1: the secure source); the
decided orders are written into the drafts' server-only ``secret`` part, and replaying them
takes no randomness at all (:class:`QueuedChance`).
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable
from typing import Any

from paiute.actions import Action
from paiute.analysis import lesson as script
from paiute.analysis.lesson import Step
from paiute.cards import Card
from paiute.chance import Chance, RecordedChance
from paiute.deal import Deal, Phase
from paiute.errors import N_, IllegalActionError, PaiuteError
from paiute.fairness import (
    CommittingChance,
    RebuildCommitment,
    commitment_hash,
    cut,
    new_salt,
)
from paiute.match import Match
from paiute.players import Player
from paiute.rules import RuleSet
from paiute.server import lesson
from paiute.server.deals import SECURE_DEALS, DealSource
from paiute.server.errors import ServiceError
from paiute.server.lesson import LESSON_DEALS, LessonInput
from paiute.server.names import NAME_LIMIT, clashes  # noqa: F401 (NAME_LIMIT: re-exported)
from paiute.server.proofs import DealProof, Pending, QueuedChance
from paiute.server.tabledata import (  # noqa: F401 (re-exported: the table's values)
    AUTOPLAY_REASONS,
    BOTS,
    CHAT_KEPT,
    CHAT_LIMIT,
    CHAT_PER_SEAT,
    CHAT_STORED,
    CLOCK_BOT,
    IN_MATCH,
    STATUSES,
    Draft,
    HintPolicy,
    Seat,
    TableConfig,
    TableEvent,
    bot_name,
    clean_chat,
    clean_name,
    hint_policy,
    status_after,
)

__all__ = [
    "BOTS",
    "DealProof",
    "Draft",
    "LiveTable",
    "QueuedChance",
    "Seat",
    "TableConfig",
    "TableEvent",
    "status_after",
]

# Why a move is refused when no deal is in play: one whole message per table status.
_NOT_PLAYING: dict[str, str] = {
    "waiting": N_("no deal is being played (the table is waiting)"),
    "cut": N_("no deal is being played (the table is cut)"),
    "playing": N_("no deal is being played (the table is playing)"),
    "deal_over": N_("no deal is being played (the table is deal_over)"),
    "closed": N_("no deal is being played (the table is closed)"),
}


#: Fresh seat links (``relinked`` events) one seat may be given: each is an event of the table.
RELINKS_PER_SEAT = 64


# -- the table ----------------------------------------------------------------------------


class LiveTable:
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

    def number(self, drafts: Iterable[Draft], created: float) -> list[TableEvent]:
        """Give ``drafts`` the next versions, ready to store."""
        return [
            TableEvent(self.version + index, draft.type, draft.seat, draft.data, draft.secret, created)
            for index, draft in enumerate(drafts, start=1)
        ]

    # -- plans: what a request would add (nothing changes here) -------------------------------

    def plan_join(
        self, name: str, seat: int | None, token_hash: str, invite: str | None, account: str | None = None
    ) -> list[Draft]:
        """A person sits down. ``account``: the id of the account they are logged in with; a
        rated table seats only accounts, each once (the seat keeps it, server-only)."""
        # The invitation first: a stranger learns nothing of a private table, not even whether
        # its match has started.
        if self.config.private and invite != self.config.invite:
            raise ServiceError("forbidden", N_("this table is private: joining needs its invitation link"))
        if self.status != "waiting":
            raise ServiceError("conflict", N_("the match has started: you can watch it as a spectator"))
        secret = {"token": token_hash}
        if self.config.rated:
            if account is None:
                raise ServiceError(
                    "forbidden", N_("only players logged in to an account can sit at a rated table")
                )
            if any(held.account == account for held in self.seats):
                raise ServiceError("conflict", N_("your account already has a seat at this table"))
            secret["account"] = account
        name = clean_name(name)
        if clashes(name, self.names()):
            raise ServiceError(
                "conflict",
                N_("the name {name!r} is taken at this table (or one that looks like it)"),
                name=name,
            )
        free = [index for index, held in enumerate(self.seats) if not held.taken]
        if seat is None:
            if not free:
                raise ServiceError("conflict", N_("every seat is taken"))
            seat = free[0]
        elif not 0 <= seat < len(self.seats):
            raise ServiceError(
                "bad_request",
                N_("R2.2 seat {seat} is not one of the {count} seats"),
                seat=seat,
                count=len(self.seats),
            )
        elif seat not in free:
            raise ServiceError("conflict", N_("seat {seat} is taken"), seat=seat)
        return [Draft("joined", seat, {"name": name}, secret)]

    def plan_leave(self, seat: int) -> list[Draft]:
        """Before the start the seat is freed; during the match the bot plays it to the end
        (its player may come back and take it again); once every person has left, the match
        ends (nobody is left to play with)."""
        if self.status == "waiting":
            return [Draft("left", seat)]
        if self.status not in IN_MATCH:
            raise ServiceError("conflict", N_("the match is over: there is no seat to leave"))
        if self.autoplay.get(seat) == "left":
            raise ServiceError("conflict", N_("you have already left this match"))
        drafts = [Draft("autoplay", seat, {"reason": "left"})]
        if all(self.autoplay.get(other) == "left" for other in self.persons() if other != seat):
            drafts.append(Draft("closed", None, {"reason": "every player has left", "cause": "left"}))
        return drafts

    def plan_abandon(self, minutes: int) -> list[Draft]:
        """Nobody has been at the table for ``minutes``: it ends, as when every person has
        left. Its finished deals stay (record, replays, proofs); a deal being cut or played is
        left unfinished: nobody wins it and its commitment is never revealed."""
        if self.status == "closed":
            raise ServiceError("conflict", N_("the table is closed"))
        reason = f"nobody played for {minutes} minutes"
        return [Draft("closed", None, {"reason": reason, "cause": "idle", "idle_minutes": minutes})]

    def plan_autoplay(self, seat: int, reason: str, *, by: int | None = None) -> list[Draft]:
        """Hand ``seat`` to the bot (``by``: the host who does it, else the server); never at a
        lesson table, which waits for its person (the coach asks for each move)."""
        if self.lesson is not None:
            raise ServiceError("conflict", N_("a lesson waits for its player: no bot plays their seat"))
        if self.status not in IN_MATCH:
            raise ServiceError("conflict", N_("a seat is handed to the bot only during a match"))
        if by is not None and by != self.host:
            raise ServiceError("forbidden", N_("only the host can hand a seat to the bot"))
        if not 0 <= seat < len(self.seats) or seat not in self.persons():
            raise ServiceError("bad_request", N_("seat {seat} is not a person's seat"), seat=seat)
        if seat in self.autoplay:
            raise ServiceError("conflict", N_("the bot already plays seat {seat}"), seat=seat)
        return [Draft("autoplay", seat, {"reason": reason})]

    def plan_relink(self, seat: int, token_hash: str) -> list[Draft]:
        """One more token for ``seat`` (a fresh seat link for its holder's account, on another
        device): the seat's other tokens stay valid. At most :data:`RELINKS_PER_SEAT` a seat."""
        if not 0 <= seat < len(self.seats) or self.seats[seat].token is None:
            raise ServiceError("conflict", N_("seat {seat} is not held by a person"), seat=seat)
        if self.relinks.get(seat, 0) >= RELINKS_PER_SEAT:
            raise ServiceError(
                "rate_limited",
                N_("seat {seat} has had {limit} fresh seat links: use one of those"),
                seat=seat,
                limit=RELINKS_PER_SEAT,
            )
        return [Draft("relinked", seat, {}, {"token": token_hash})]

    def plan_return(self, seat: int) -> list[Draft]:
        """The seat's player takes it back from the bot."""
        if seat not in self.autoplay:
            raise ServiceError("conflict", N_("your seat is not played by the bot"))
        if self.status == "closed":
            raise ServiceError("conflict", N_("the match is over"))
        return [Draft("returned", seat)]

    def take_back(self, seat: int) -> list[Draft]:
        """What a move of ``seat``'s own player first needs: the seat back from the bot."""
        return [Draft("returned", seat)] if seat in self.autoplay else []

    def plan_rematch(self, new_id: str) -> list[Draft]:
        if self.status != "closed":
            raise ServiceError("conflict", N_("a rematch is offered once the match is over"))
        if self.rematch is not None:
            raise ServiceError("conflict", N_("the rematch table is already made"))
        return [Draft("rematch", None, {"table": new_id})]

    def plan_start(self, seat: int) -> list[Draft]:
        if self.status != "waiting":
            raise ServiceError("conflict", N_("the match has already started"))
        host = self.host
        if host is not None and seat != host:
            raise ServiceError("forbidden", N_("only the host (seat {host}) starts the match"), host=host)
        empty = [index for index, held in enumerate(self.seats) if not held.taken]
        spec = self.config.bots
        if empty and spec is None:
            raise ServiceError(
                "conflict",
                N_("seat(s) {seats} are empty and this table has no bots to fill them"),
                seats=", ".join(map(str, empty)),
            )
        bots = {str(index): spec for index in empty}
        names: list[str | None] = self.names()
        for index in empty:
            assert spec is not None
            name = lesson.bot_names().get(index) if self.config.lesson else None
            names[index] = name if name and not clashes(name, names) else bot_name(spec, index, names)
        # R2.3: the first dealer is chosen at random (R10.1: securely).
        dealer = self.deals.dealer(len(self.seats))
        started = Draft("started", seat, {"bots": bots, "names": names, "dealer": dealer})
        return [started, self._commit_deal(1, dealer)]

    def plan_next(self) -> list[Draft]:
        """After a deal: the next deal's commitment, or the end of the match."""
        if self.status != "deal_over":
            raise ServiceError("conflict", N_("no deal has just ended"))
        assert self.match is not None
        ending = self._ending()
        if ending is not None:
            return [Draft("closed", None, ending)]
        return [self._commit_deal(len(self.match.deals) + 1, self.match.next_dealer)]

    def _ending(self) -> dict[str, Any] | None:
        """Why the match ends after this deal, if it does: the ``closed`` event's data, its
        English ``reason`` and the machine fields the pages say it with (``cause`` and its
        count of ``deals`` or the ``seats`` that cannot pay)."""
        assert self.match is not None
        limit = self.config.max_deals
        if limit is not None and len(self.match.results) >= limit:
            played = "the only deal" if limit == 1 else f"the {limit} deals"
            verb = "has" if limit == 1 else "have"
            return {"reason": f"{played} of the match {verb} been played", "cause": "deals", "deals": limit}
        rules = self.rules
        short = [
            index
            for index, balance in enumerate(self.match.balances)
            if (balance < rules.stake if rules.payout == "pot" else balance <= 0)
        ]
        if short:
            names = ", ".join(self.match.players[index] for index in short)
            reason = f"{names} cannot pay the next stake (R8.2)"
            return {"reason": reason, "cause": "stake", "seats": short}
        return None

    def _commit_deal(self, number: int, dealer: int) -> Draft:
        # R10.2: a secure, uniform order (R10.1), a secret salt, the hash published before the cut.
        order = self.deals.order(self.rules.jokers, number)
        salt = new_salt()
        cutter = (dealer - 1) % len(self.seats)  # R2.4: the player to the dealer's right
        data = {"deal": number, "dealer": dealer, "cutter": cutter, "sha256": commitment_hash(order, salt)}
        return Draft("commitment", cutter, data, {"order": [str(card) for card in order], "salt": salt})

    def plan_cut(self, seat: int, position: int | None, by: str) -> list[Draft]:
        if self.cutter is None or self._pending is None:
            raise ServiceError("conflict", N_("no pack is waiting to be cut"))
        if seat != self._pending.cutter:
            raise ServiceError(
                "not_your_turn",
                N_("R2.4 the player to the dealer's right (seat {seat}) cuts"),
                seat=self._pending.cutter,
            )
        size = self.rules.pack_size
        if position is None:
            position = self.deals.cut(size, self._pending.deal)  # on the cutter's behalf (R2.4, R10.1)
        elif not 0 <= position < size:
            raise ServiceError(
                "bad_request", N_("R2.4 the cut is a position from 0 to {last}"), "R2.4", last=size - 1
            )
        number = self._pending.deal
        return [
            Draft("cut", seat, {"deal": number, "position": position, "by": by}),
            Draft("deal", self._pending.dealer, {"deal": number}),
        ]

    def plan_action(self, seat: int, action: Action, by: str) -> list[Draft]:
        """One action by ``seat``; refused with the rule it breaks (R4, R6, R7). At a lesson
        table the person's moves go through the coach instead (:meth:`plan_lesson`)."""
        if self.lesson is not None and not self.is_bot(seat):
            raise ServiceError(
                "conflict", N_("at a lesson table, each move is a lesson message: the coach checks it")
            )
        deal = self._playing_deal()
        if seat != deal.current_seat:
            raise ServiceError(
                "not_your_turn",
                N_("R4.1 it is seat {current}'s turn, not seat {seat}'s"),
                current=deal.current_seat,
                seat=seat,
            )
        chance = CommittingChance(self._rebuild_chance())
        return self._play(deal.copy(chance), chance, action, seat, by)

    def plan_lesson(self, seat: int, what: LessonInput, lang: str) -> tuple[dict[str, Any], list[Draft]]:
        """The person's input ``what`` at a lesson table: the coach's answer (worded by the page
        in ``lang``, :func:`~paiute.server.lesson.reply`) and the drafts, none unless the input
        is the step's own: then its action, if it has one, and the lesson's next step."""
        step = self.lesson
        deal = self.deal
        if step is None:
            raise ServiceError("conflict", N_("this is not a lesson table"))
        if deal is None or self.status == "cut":
            raise ServiceError("conflict", N_("the lesson begins once the cards are dealt"))
        check = lesson.check(step, deal, what)
        if not check.advance or step is Step.DONE:  # nothing to store: the coach's answer only
            return lesson.reply(check, step, deal, lang), []
        if self.status == "closed":
            raise ServiceError("conflict", N_("the table is closed"))
        drafts: list[Draft] = []
        if check.play is not None:
            chance = CommittingChance(self._rebuild_chance())
            trial = deal.copy(chance)
            drafts = self._play(trial, chance, check.play, seat, "player")
            check, deal = script.played(step, trial), trial
        drafts.append(Draft("lesson", seat, {"step": script.next_step(step).value}))
        return lesson.reply(check, step, deal, lang), drafts

    def coach_waits(self) -> bool:
        """Whether a lesson table's coach waits for its person: the step can be taken now, so
        the bots, and the match's end, wait for it (until the last step)."""
        step = self.lesson
        deal = self.deal
        if step is None or step is Step.DONE or deal is None or self.status not in ("playing", "deal_over"):
            return False
        return script.ready(step, deal)

    def plan_turn(self, seat: int, player: Player, by: str, *, whole_turn: bool) -> list[Draft]:
        """``player`` (a bot) plays for ``seat``: one action, or the rest of its turn."""
        deal = self._playing_deal()
        if seat != deal.current_seat:
            raise ServiceError("not_your_turn", N_("R4.1 it is seat {seat}'s turn"), seat=deal.current_seat)
        chance = CommittingChance(self._rebuild_chance())
        trial = deal.copy(chance)
        drafts: list[Draft] = []
        for _ in range(2):  # a turn is a draw and a discard or call (R4.2)
            drafts += self._play(trial, chance, player.act(trial.observation(seat)), seat, by)
            if not whole_turn or trial.is_over or trial.current_seat != seat or trial.phase is Phase.DRAW:
                break
        return drafts

    def _rebuild_chance(self) -> Chance:
        # R4.6, R10.1: a stock rebuilt by this change is shuffled by the table's source.
        return self.deals.rebuilds(self.deal_number or 0, self.version)

    def _playing_deal(self) -> Deal:
        deal = self.deal
        if self.status != "playing" or deal is None or deal.is_over:
            raise ServiceError("conflict", _NOT_PLAYING.get(self.status, _NOT_PLAYING["playing"]))
        return deal

    def _play(self, trial: Deal, chance: CommittingChance, action: Action, seat: int, by: str) -> list[Draft]:
        before = trial.rebuilds
        try:
            trial.apply(action)
        except IllegalActionError as error:
            raise ServiceError("illegal_action", str(error), error.rule, cause=error) from None
        data: dict[str, Any] = {"action": str(action), "by": by}
        secret: dict[str, Any] = {}
        if trial.rebuilds > before:  # R4.6, R10.2: the rebuilt stock is committed and stored
            made = chance.rebuilds[-1]
            data["rebuild"] = {"sha256": made.sha256}
            secret["rebuild"] = {"order": [str(card) for card in made.order], "salt": made.salt}
        drafts = [Draft("action", seat, data, secret)]
        if trial.is_over:
            drafts.append(Draft("deal_over", None, {}))
        return drafts

    def plan_hint(self, seat: int, moment: int) -> list[Draft]:
        """``seat`` asks for a hint at ``moment``: refused when hints are off for it or it is
        not its move; where asks are told to the table (hint_policy), the announcement, once a
        seat and moment. It names the seat only, never the hint or a card (R9)."""
        policy = self.hints_for(seat)
        policy.check()
        deal = self.deal
        if self.status != "playing" or deal is None or deal.is_over or deal.current_seat != seat:
            raise ServiceError("not_your_turn", N_("a hint is for your own move: it is not your turn now"))
        if self.is_bot(seat):  # pragma: no cover - a bot's seat has no token
            raise ServiceError("forbidden", N_("a hint is for a person's seat"))
        if moment != self.hint_moment:
            raise ServiceError(
                "conflict",
                N_("the table has moved on: it is at version {version}, not {expected}"),
                version=self.hint_moment,
                expected=moment,
            )
        if not policy.announced or self.hints_asked.get(seat) == moment:
            return []
        return [Draft("hint", seat)]

    def plan_chat(self, seat: int, text: str) -> list[Draft]:
        if self.status == "closed":
            raise ServiceError("conflict", N_("the table is closed"))
        if self.chat_said[seat] >= CHAT_PER_SEAT:
            raise ServiceError(
                "rate_limited",
                N_("you have said {limit} lines at this table: that is the most"),
                limit=CHAT_PER_SEAT,
            )
        if self.chat_lines >= CHAT_STORED:
            raise ServiceError(
                "rate_limited", N_("this table's chat is full ({limit} lines)"), limit=CHAT_STORED
            )
        return [Draft("chat", seat, {"name": self.seats[seat].name, "text": clean_chat(text)})]

    def plan_timeout(self, seat: int, player: Player, *, connected: bool = True) -> list[Draft]:
        """The clock ran out for ``seat``: the server plays its turn (or cut) and says so. A
        seat with no connection is then handed to the bot (its player is not there)."""
        drafts = [Draft("timeout", seat, {})]
        if not connected:
            drafts.append(Draft("autoplay", seat, {"reason": "clock"}))
        if self.status == "cut":
            return [*drafts, *self.plan_cut(seat, None, "clock")]
        return [*drafts, *self.plan_turn(seat, player, "clock", whole_turn=True)]
