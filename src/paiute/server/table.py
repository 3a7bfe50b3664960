"""One table in memory: its state rebuilt from its stored events, and plans for new events.

A table is the log of its events (version 1, 2, ...), replayed one by one
(:class:`~paiute.server.tablestate.TableState`, which :class:`LiveTable` is). Nothing here does
I/O.

To accept a request the service asks for a *plan* (``plan_action``, ``plan_cut``...): a list
of :class:`Draft` events worked out on a copy of the deal, so the table itself is untouched
until the drafts are committed. Chance enters only in plans (R10.1: the secure source); the
decided orders are written into the drafts' server-only ``secret`` part, and replaying them
takes no randomness at all (:class:`QueuedChance`).
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable
from typing import Any

from paiute.actions import Action
from paiute.analysis import lesson as script
from paiute.analysis.lesson import Step
from paiute.chance import Chance
from paiute.deal import Deal, Phase
from paiute.errors import N_, IllegalActionError
from paiute.fairness import CommittingChance, commitment_hash, new_salt
from paiute.players import Player
from paiute.server import lesson
from paiute.server.errors import ServiceError
from paiute.server.lesson import LessonInput
from paiute.server.names import NAME_LIMIT, clashes  # noqa: F401 (NAME_LIMIT: re-exported)
from paiute.server.proofs import DealProof, QueuedChance
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
from paiute.server.tablestate import TableState

__all__ = [
    "BOTS",
    "DealProof",
    "Draft",
    "LiveTable",
    "QueuedChance",
    "Seat",
    "TableConfig",
    "TableEvent",
    "same_invite",
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


def same_invite(given: str | None, code: str | None) -> bool:
    """Whether ``given`` is the invitation ``code``, compared in constant time (as bytes: any
    text a person types compares, none raises)."""
    if given is None or code is None:
        return False
    return hmac.compare_digest(given.encode(errors="surrogatepass"), code.encode(errors="surrogatepass"))


# -- the table ----------------------------------------------------------------------------


class LiveTable(TableState):
    """A table the server holds: its state (:class:`~paiute.server.tablestate.TableState`,
    rebuilt from its stored events) and the plans for new events."""

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
        # its match has started (nor, from the time the answer takes, how much of the code
        # was right: a constant-time comparison).
        if self.config.private and not same_invite(invite, self.config.invite):
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
