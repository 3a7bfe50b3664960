// Every user-facing string of the web pages, in one place, ready for translation.
//
// Rules for this file: a sentence is ONE entry with named placeholders ("{name} drew from the
// stock"), never glued together from pieces in code; an entry whose wording depends on a
// number is an object keyed by Intl.PluralRules categories ("one", "other", ...). A translation
// is another dictionary of the same shape registered in LANGUAGES.

export const EN = {
  // The <noscript> line of base.html (which repeats it: it shows where no script runs).
  "app.noscript": "These pages need JavaScript.",

  // Cards (R1). A card's spoken name is built from a template, not by concatenation.
  "rank.2": "two",
  "rank.3": "three",
  "rank.4": "four",
  "rank.5": "five",
  "rank.6": "six",
  "rank.7": "seven",
  "rank.8": "eight",
  "rank.9": "nine",
  "rank.T": "ten",
  "rank.J": "jack",
  "rank.Q": "queen",
  "rank.K": "king",
  "rank.A": "ace",
  "ranks.2": "twos",
  "ranks.3": "threes",
  "ranks.4": "fours",
  "ranks.5": "fives",
  "ranks.6": "sixes",
  "ranks.7": "sevens",
  "ranks.8": "eights",
  "ranks.9": "nines",
  "ranks.T": "tens",
  "ranks.J": "jacks",
  "ranks.Q": "queens",
  "ranks.K": "kings",
  "ranks.A": "aces",
  // The letters printed on card faces (Romanian packs: V D R A), and the ten's "10".
  "rank.short.T": "10",
  "rank.short.J": "J",
  "rank.short.Q": "Q",
  "rank.short.K": "K",
  "rank.short.A": "A",
  "suit.c": "clubs",
  "suit.d": "diamonds",
  "suit.h": "hearts",
  "suit.s": "spades",
  // A suit inside a card's name may take another form (Bengali: the genitive, "হরতনের").
  "card.suit.c": "clubs",
  "card.suit.d": "diamonds",
  "card.suit.h": "hearts",
  "card.suit.s": "spades",
  "card.name": "{rank} of {suit}",
  "card.joker": "joker {number}",
  "card.joker.short": "Joker",
  "card.wild": "{card}, wild",
  "card.drawn": "{card}, just drawn",
  "card.taken": "{card}, taken from the discard pile",
  "card.badge.wild": "wild",
  "card.badge.new": "new",
  "card.badge.taken": "taken",

  // Combination values (R5), from their JSON form {"name", "ranks"}.
  "value.five_of_a_kind": "Five of a Kind, {r1}",
  "value.royal_flush": "Royal Flush",
  "value.straight_flush": "Straight Flush, {r1} high",
  "value.four_two": "Four / Two, {r1} over {r2}",
  "value.three_three": "Three / Three, {r1} over {r2}",
  "value.paiute": "Paiute, {r1}/{r2}/{r3}",

  // The language switcher (each language's own name is not translated).
  "lang.label": "Language",

  // Connection and errors.
  "conn.connecting": "Connecting…",
  "conn.online": "Connected",
  "conn.offline": "Connection lost, reconnecting…",
  "conn.stopped": "Not connected",
  // The page of a table that does not exist (404).
  "missing.title": "No such table",
  "missing.text": "There is no table at this address: it may have been mistyped.",
  "missing.back": "Back to the lobby",
  "conn.pending": {
    one: "{count} action waiting for the server",
    other: "{count} actions waiting for the server",
  },
  "error.with_rule": "{message} ({rule})",
  "error.plain": "{message}",
  "error.network": "The server cannot be reached.",
  "error.unknown": "Something went wrong.",
  "error.not_your_turn": "It is not your turn.",
  "error.rate_limited": "Too many messages; wait a moment.",
  "error.bad_token": "This seat link is no longer valid; you are watching as a spectator.",

  // Lobby.
  "lobby.title": "Paiute — tables",
  "lobby.heading": "Paiute",
  "lobby.tagline": "The Hawaiian draw-and-discard card game. Sit down with friends, or with bots.",
  "lobby.create.heading": "New table",
  "lobby.create.table_name": "Table name",
  "lobby.create.table_name.default": "{name}'s table",
  "lobby.create.your_name": "Your name",
  "lobby.create.preset": "Rules",
  "lobby.create.preset.pagat": "pagat.com (default)",
  "lobby.create.preset.gamerules": "family game rules",
  "lobby.create.options": "Rule options",
  "lobby.create.option.default": "as the rules say ({value})",
  "lobby.create.option.on": "on",
  "lobby.create.option.off": "off",
  "lobby.create.seats": "Seats",
  "lobby.create.stake": "Stake per deal",
  "lobby.create.stake.help": "Empty: the rules' stake",
  "lobby.create.chips": "Starting chips",
  "lobby.create.bots": "Bots for empty seats",
  "lobby.create.bots.none": "no bots: wait for players",
  "lobby.create.turn_seconds": "Turn clock (s)",
  "lobby.create.turn_seconds.per_turn": "Seconds for each turn",
  "lobby.create.bank_seconds": "Time bank (s)",
  "lobby.create.bank_seconds.help": "Extra seconds for each seat, spent on slow turns",
  "lobby.create.no_clock": "No turn clock (private tables only)",
  "lobby.play.heading": "Play now",
  "lobby.play.help": "A private table against bots, dealt at once.",
  "lobby.play.level": "Bots' level",
  "lobby.play.submit": "Play against bots",
  "lobby.level.easy": "easy",
  "lobby.level.medium": "medium",
  "lobby.level.hard": "hard",
  "lobby.level.expert": "expert",
  "lobby.filter.open": "Open seats only",
  "lobby.filter.preset": "Rules",
  "lobby.filter.preset.any": "any rules",
  "lobby.filter.stake": "Stake",
  "lobby.list.none_match": "No open table matches these filters.",
  "lobby.page": "Page {page} of {pages}",
  "lobby.page.label": "Pages of tables",
  "lobby.page.prev": "Previous",
  "lobby.page.next": "Next",
  "lobby.create.max_deals": "Deals",
  "lobby.create.max_deals.help": "Empty: no limit",
  "lobby.create.private": "Private: only people with the invitation link can join",
  "lobby.create.submit": "Create the table",
  "lobby.create.creating": "Creating…",
  "lobby.list.heading": "Open tables",
  "lobby.list.refresh": "Refresh",
  "lobby.list.empty": "No open tables yet. Create one!",
  "lobby.list.players": "{taken}/{seats} seated",
  "lobby.list.spectators": { one: "{count} watching", other: "{count} watching" },
  "lobby.list.deals": { one: "{count} deal played", other: "{count} deals played" },
  "lobby.list.stake": "stake {stake}",
  "lobby.list.status.waiting": "waiting for players",
  "lobby.list.status.playing": "playing",
  "lobby.list.status.closed": "closed",
  "lobby.list.join": "Join {table}",
  "lobby.list.watch": "Watch {table}",
  "lobby.list.resume": "Back to {table}",
  "lobby.join.name_needed": "Enter your name first.",

  // Table page.
  "table.title": "Paiute — {table}",
  "table.back": "Tables",
  "table.status.waiting": "Waiting for players",
  "table.status.cut": "The cut",
  "table.status.playing": "Deal {deal}",
  "table.status.deal_over": "Deal {deal} is over",
  "table.status.closed": "The table is closed",
  "table.you_are": "You are {name}, seat {seat}.",
  "table.spectator": "You are watching. Spectators see no hands.",
  "table.seat": "Seat {seat}",
  "table.seat.empty": "empty seat",
  "table.seat.bot": "bot ({spec})",
  "table.seat.you": "you",
  "table.seat.offline": "offline",
  "table.seat.autoplay": "the bot plays",
  "table.seat.away": "away: the bot plays in {seconds} s",
  "table.seat.cutter": "cuts",
  "table.seat.hand_to_bot": "Let the bot play",
  "table.seat.dealer": "dealer",
  "table.seat.turn": "to play",
  "table.seat.chips": "{chips} chips",
  "table.seat.cards": { one: "{count} card", other: "{count} cards" },
  "table.seat.holds": "seen taking:",
  "table.seat.called": "called {value}",
  "table.join.heading": "Take a seat",
  "table.waiting.heading": "Waiting for the match to start",
  "table.leave": "Leave this seat",
  "table.leave.match": "Leave the match (the bot plays for you)",
  "table.leave.last": "Leave and end the match (nobody else is playing)",
  "table.return": "Take my seat back",
  "table.autoplay.left": "You left the match: the bot plays your seat.",
  "table.autoplay.away": "The bot plays your seat while you are away.",
  "table.rematch.heading": "Rematch",
  "table.rematch.note": "A new table with the same settings; seats of players who do not come stay open (or get bots, as the table says).",
  "table.rematch.button": "Play a rematch",
  "table.rematch.ready": "The rematch table is ready.",
  "table.rematch.join": "Join the rematch",
  "table.alerts.heading": "When it is your turn",
  "table.alerts.sound": "Play a sound",
  "table.alerts.notify": "Notify me while this tab is hidden",
  "table.alerts.denied": "This browser does not allow notifications for this page.",
  "alert.title": "Your turn — {title}",
  "alert.notification.title": "Paiute: your turn",
  "table.join.name": "Your name",
  "table.join.seat": "Sit at seat {seat}",
  "table.join.full": "All seats are taken; you can watch.",
  "table.start": "Start the match",
  "table.start.help": "Empty seats get bots when the match starts.",
  "table.invite": "Invitation link (send it to your friends):",
  "table.copy": "Copy",
  "table.copied": "Copied",
  "table.seat_link": "Continue on another device: open this link there (keep it private, it is your seat).",
  "table.seat_link.show": "Seat link",
  "table.upcard": "Upcard",
  "table.upcard.none": "No upcard: the jokers are wild (R3.2).",
  "table.wild.rank": "Wild: {ranks}",
  "table.wild.opposite": "Wild: the two {ranks} of the other colour (R3.3)",
  "table.stock": "Stock",
  "table.stock.size": { one: "{count} card", other: "{count} cards" },
  "table.stock.upcard_bottom": "the upcard is at the bottom",
  "table.stock.rebuilt": { one: "rebuilt once", other: "rebuilt {count} times" },
  "table.discard": "Discard pile",
  "table.discard.empty": "empty",
  "table.discard.history": { one: "history ({count} card)", other: "history ({count} cards)" },
  "table.pot": "Pot",
  "table.pot.value": "{pot} chips",
  "table.last_round": "Last round (R7.2): equal or beat {value} (R6.4).",
  "table.turn.you.draw": "Your turn: draw from the stock or the discard pile.",
  "table.turn.you.draw_stock": "Your turn: draw from the stock (the discard pile is empty).",
  "table.turn.you.discard": "Tap a card to discard it, or call.",
  "table.turn.you.discard_nocall": "Tap a card to discard it.",
  "table.turn.other": "Waiting for {name}.",
  "table.turn.over": "The deal is over.",
  "table.clock": "{seconds} s left",
  "table.clock.bank": "time bank: {seconds} s",
  "table.hand": "Your hand",
  "table.hand.none": "You have no cards right now.",
  "table.taken_rule": "{card} came from the discard pile and may not go back this turn (R4.3).",
  "table.draw_stock": "Draw from the stock",
  "table.draw_stock.label": {
    one: "Draw from the stock ({count} card)",
    other: "Draw from the stock ({count} cards)",
  },
  "table.draw_discard": "Take {card} from the discard pile",
  "table.draw_discard.empty": "Take from the discard pile",
  "table.call.heading": "Call",
  "table.call.best": "Best call: {value}",
  "table.call.shows": "Shows",
  "table.call.puts_down": "puts down {card}",
  "table.call.six": "all six cards",
  "table.call.button": "Call {value}",
  "table.call.other": "Other calls",
  "table.call.other.button": "Call, putting down {card}",
  "table.call.other.button_value": "Call {value}, putting down {card}",
  "table.call.other.six": "Call with all six cards",
  "table.calls.heading": "Calls",
  "table.calls.item": "{name}: {value}",
  "table.cut.heading": "The cut (R2.4)",
  "table.cut.commitment": "The server has committed to the shuffled pack (R10.2). Hash:",
  "table.cut.you": "You cut the pack: choose where.",
  "table.cut.position": "Cut position",
  "table.cut.position.value": "Cut after card {position} of {size}",
  "table.cut.random": "Random",
  "table.cut.button": "Cut here",
  "table.cut.waiting": "Waiting for {name} to cut.",
  "table.log.heading": "What happened",
  "table.chat.heading": "Chat",
  "table.chat.placeholder": "Say something",
  "table.chat.send": "Send",
  "table.chat.spectator": "spectator",
  "table.balances.heading": "Chips",

  // Deal summary (R8) and the fair-deal proof (R10.2).
  "summary.heading": "Deal {deal}: summary",
  "summary.dead": "Dead deal (R4.7): nobody wins; the pot stays for the next deal (R8.5).",
  "summary.winner": "Winner: {names}",
  "summary.winners": "Winners (tie, R8.3): {names}",
  "summary.nobody": "Nobody won.",
  "summary.pot": "Pot after the deal: {pot} chips",
  "summary.names_separator": ", ",
  "summary.call": "{name} called {value}",
  "summary.first_turn": "on the first turn",
  "summary.seat": "Player",
  "summary.hand": "Final hand",
  "summary.payout": "Won / paid",
  "summary.balance": "Chips",
  "summary.replay": "Replay this deal",
  "summary.record": "Download the game record",
  "summary.close": "Hide",
  "proof.heading": "Fair deal proof (R10.2)",
  "proof.checking": "Checking the proof in your browser…",
  "proof.verified": "verified",
  "proof.failed": "NOT verified",
  "proof.unavailable": "The proof cannot be checked: {message}",
  "proof.no_crypto": "This browser cannot compute SHA-256 here (it needs https or localhost).",
  "proof.details": "The revealed orders and salts",
  "proof.salt": "Salt",
  "proof.hash": "SHA-256",
  "proof.cut": "Cut position",
  "proof.order": "Shuffled order (before the cut)",
  "proof.deck": "Pack as dealt (after the cut)",
  "proof.rebuild": "Rebuild {number}",
  "proof.check.hash": "The revealed order and salt give the committed hash.",
  "proof.check.hash.bad": "The revealed order and salt do NOT give the hash {hash}.",
  "proof.check.seen": "The hash is the one this page was shown before the cut.",
  "proof.check.seen.bad": "The hash differs from the one this page was shown before the cut ({hash}).",
  "proof.check.seen_during": "The hash is the one this page was shown during the deal.",
  "proof.check.seen_during.bad":
    "The hash differs from the one this page was shown during the deal ({hash}).",
  "proof.check.seen.none": "This page did not see the commitment before the cut (it joined later).",
  "proof.check.cut": "The pack dealt is the shuffled order cut at {cut}.",
  "proof.check.cut.bad": "The pack dealt is NOT the shuffled order cut at {cut}.",
  "proof.check.my_cut": "The cut is the position you chose ({cut}).",
  "proof.check.my_cut.bad": "You chose position {mine}, but the proof says {cut}.",
  "proof.check.pack": "The order is one whole pack, each card once.",
  "proof.check.pack.bad": "The order is not one whole pack.",
  "proof.check.rebuild": "Rebuild {number}: the revealed order and salt give its hash.",
  "proof.check.rebuild.bad": "Rebuild {number}: the revealed order and salt do NOT give its hash.",
  "proof.check.rebuild.seen": "Rebuild {number}: the hash is the one published during the deal.",
  "proof.check.rebuild.seen.bad":
    "Rebuild {number}: the hash differs from the one published during the deal.",
  "proof.check.my_hand": "Your five cards were dealt from this pack (R2.5).",
  "proof.check.my_hand.bad": "Your five cards were NOT dealt from this pack (R2.5).",
  "proof.check.upcard": "The upcard {card} is the card after the hands in this pack (R2.6).",
  "proof.check.upcard.bad": "The upcard {card} is NOT the card after the hands in this pack (R2.6).",
  "proof.check.deal": "The hands were dealt from this pack (R2.5).",
  "proof.check.deal.bad": "The hands dealt do not follow from this pack (R2.5).",

  // Replay page.
  "replay.title": "Paiute — replay of deal {deal}",
  "replay.heading": "Replay: {table}, deal {deal}",
  "replay.back": "Back to the table",
  "replay.deal": "Deal",
  "replay.first": "First",
  "replay.prev": "Previous",
  "replay.next": "Next",
  "replay.last": "Last",
  "replay.step": "Step {step} of {steps}",
  "replay.step.slider": "Step",
  "replay.keys": "Arrow keys step; Home and End jump.",
  "replay.start": "The cards are dealt.",
  "replay.action": "{name}: {action}",
  "replay.stock": "Stock (top first)",
  "replay.record": "Download the game record",
  "replay.not_ready": "This deal is not finished yet: {message}",
  "replay.forbidden": "You are not allowed to see this deal: {message}",

  // Hints (paiute.analysis.hint): the best move for your seat and why (POST /api/tables/ID/hint).
  "hint.button": "Hint",
  "hint.thinking": "Thinking: every move is played out…",
  "hint.heading": "Hint",
  "hint.close": "Hide",
  "hint.stale": "The table has moved on since this hint: ask again.",
  "hint.move": "Recommended: {action}",
  "hint.basis.expert": {
    one: "The expert's move; below, each of the {moves} moves played out {count} time.",
    other: "The expert's move; below, each of the {moves} moves played out {count} times.",
  },
  "hint.noise": "{action} shows {chips} chips more in these playouts, within their noise ({low} to {high}).",
  "hint.beyond": "{action} shows {chips} chips more in these playouts ({low} to {high}); moves chosen that way instead of the expert's lost chips in play, so the hint keeps the expert's.",
  "hint.feed.avoid": "Not {card}: the next player, {name}, could call at once with it about {chance} of the time (a chance learned from public play, R4.2).",
  "hint.feed.risk": "The next player, {name}, could call at once with {card} about {chance} of the time (a chance learned from public play, R4.2).",
  "hint.table.feed": "Feeds the next player",
  "hint.basis.only": "Your only legal move now.",
  "hint.action.draw_stock": "draw from the stock",
  "hint.action.draw_discard": "take the top of the discard pile",
  "hint.action.discard": "discard {card}",
  "hint.action.call": "call {value}, putting down {card}",
  "hint.action.call_six": "call {value} with all six cards",
  "hint.pile": "The top of the discard pile completes {value} now.",
  "hint.why.one": "Keeping {cards}, you are one card from {combination} (with {uses}).",
  "hint.outs": "Outs: {outs} of the {unseen} cards you have not seen complete a combination:",
  "hint.by_category": "Outs by combination: {parts}.",
  "hint.by_category.item": "{combination} {count}",
  "hint.separator": ", ",
  "hint.why.two": "Keeping {cards}, you are two cards from {combination} (with {uses}); no single card completes a combination yet.",
  "hint.why.none": "Keeping {cards}; no winning combination is within two cards of them yet.",
  "hint.last_turn": "This is your last turn (R7.2): no draw is left to complete it.",
  "hint.chance": "Chance to complete it in the {draws} draws from the stock likely left to you: {chance}.",
  "hint.call": "Calling {value} wins {chance} of the playouts ({low} to {high}); {who} still to play (R7.2).",
  "hint.call.certain": "Calling {value}: nobody has a turn after you (R7.1, R7.3) and no call shown beats it (R6.4), so it wins (a tie shares the pot, R8.3).",
  "hint.percent": "{percent}%",
  "hint.table.caption": "Expected chips of each move, with a {level} interval",
  "hint.table.move": "Move",
  "hint.table.chips": "Chips",
  "hint.table.interval": "{level} interval",
  "hint.table.interval.value": "{low} to {high}",
  "hint.table.best": "the hint",
  "hint.category.five_of_a_kind": "Five of a Kind",
  "hint.category.royal_flush": "Royal Flush",
  "hint.category.straight_flush": "Straight Flush",
  "hint.category.four_two": "Four / Two",
  "hint.category.three_three": "Three / Three",
  "hint.category.paiute": "Paiute",
  // The review of a finished deal on the replay page (static/js/review.js, docs/review.md).
  "review.heading": "Review",
  "review.queued": "The review of this deal is waiting its turn…",
  "review.pending": "Reviewing the deal: {done} of {total} decisions…",
  "review.error": "The review is not available: {message}",
  "review.mark.inaccuracy": "inaccuracy",
  "review.mark.mistake": "mistake",
  "review.mark.blunder": "blunder",
  "review.mark.at": "{mark}, step {step}",
  "review.step.forced": "No choice here: the only legal action.",
  "review.step.best": "{name} played the best action found ({played} chips expected).",
  "review.step.better": "{name}: better {best} ({ev_best} chips expected, not {ev_played}).",
  "review.summary": "accuracy {accuracy}; inaccuracies: {inaccuracy}; mistakes: {mistake}; blunders: {blunder}; expected loss: {loss} chips",
  "review.chart": "Expected chips of each seat after each of its decisions",

  // Actions and events in words.
  "action.draw_stock": "draws from the stock",
  "action.draw_stock.card": "draws {card} from the stock",
  "action.draw_discard": "takes from the discard pile",
  "action.draw_discard.card": "takes {card} from the discard pile",
  "action.discard": "discards {card}",
  "action.call": "calls, putting down {card}",
  "action.call_six": "calls with all six cards",
  "event.joined": "{name} sits down at seat {seat}",
  "event.left": "Seat {seat} is free again",
  "event.started": "The match starts.",
  "event.commitment":
    "New deal: {dealer} deals; the shuffled pack is committed (SHA-256 {hash}…); {cutter} cuts",
  "event.cut": "{name} cuts the pack at {position}",
  "event.cut.for": "The pack is cut at {position} for {name}",
  "event.deal": "{name} deals",
  "event.deal.upcard": "{name} deals; the upcard is {card}",
  "event.deal_over": { one: "The deal is over: {names} wins", other: "The deal is over: {names} win" },
  "event.deal_over.dead": "The deal is dead: nobody wins, the pot stays (R4.7, R8.5)",
  "event.timeout": "{name}'s clock ran out: the server plays for them",
  "event.autoplay.away": "{name} is away: the bot plays for them until they are back",
  "event.autoplay.host": "The host let the bot play for {name}, who is away",
  "event.autoplay.left": "{name} left the match: the bot plays for them",
  "event.autoplay.clock": "{name} is not here: the bot plays for them until they are back",
  "event.returned": "{name} is back and plays again",
  "event.rematch": "A rematch table is ready: the same settings, the players who accept",
  "event.closed": "The match is over: {reason}",
  "event.rebuilt": "The stock is rebuilt from {count} discards (R4.6)",
  "event.by_clock": "{line} (played by the clock)",
  "event.draw_stock": "{name} drew from the stock",
  "event.draw_stock.card": "{name} drew {card} from the stock",
  "event.draw_discard": "{name} took {card} from the discard pile",
  "event.discard": "{name} discarded {card}",
  "event.call": "{name} called {value}",
  "event.call.put": "{name} called {value}, putting down {card}",
  "last.draw_stock": "drew from the stock",
  "last.drew": "drew {card}",
  "last.took": "took {card}",
  "last.took_discarded": "took {taken}, discarded {card}",
  "last.drew_discarded": "drew, discarded {card}",
  "last.drew_card_discarded": "drew {drawn}, discarded {card}",
  "last.called": "called {value}",
};

// Translations are gettext catalogues (domain "web": src/paiute/locale/LANG/LC_MESSAGES/web.po,
// each entry's msgctxt is its key here and its msgid the English text; see docs/i18n.md). The
// server puts the reader's language's catalogue in the page (<script id="paiute-i18n">, the
// same JSON as GET /api/i18n/LANG): {"lang", "nplurals", "plural", "messages": {key: text |
// [forms]}}. A key missing there falls back to the English text above.

/** The languages of the switcher; the server's LANGUAGE_NAMES. */
export const LANGUAGES = ["en", "ro", "so", "bn"];
const STORAGE_KEY = "paiute.lang";
const COOKIE = "paiute_lang";

let lang = "en";
let messages = {};
let pluralIndex = (n) => (n === 1 ? 0 : 1);
let pluralRules = new Intl.PluralRules("en");
let numbers = new Intl.NumberFormat("en", { useGrouping: false });

// A gettext Plural-Forms expression is C; it is run as JS only after checking that it holds
// nothing but n, numbers and operators (it comes from our own catalogue, never from a user).
function compilePlural(expression) {
  if (typeof expression !== "string" || !/^[n0-9\s=!<>&|?:%()+\-*/]*$/.test(expression)) return null;
  try {
    const fn = new Function("n", `return Number(${expression});`);
    fn(1);
    return fn;
  } catch {
    return null;
  }
}

/** Use a catalogue ({lang, plural, messages}) for every string from now on. */
export function setCatalogue(catalogue) {
  if (!catalogue || !LANGUAGES.includes(catalogue.lang)) return;
  lang = catalogue.lang;
  messages = catalogue.messages ?? {};
  pluralIndex = compilePlural(catalogue.plural) ?? pluralIndex;
  pluralRules = new Intl.PluralRules(lang);
  numbers = new Intl.NumberFormat(lang, { useGrouping: false });
  document.documentElement.lang = lang;
}

/** The language the page is shown in. */
export function currentLanguage() {
  return lang;
}

/**
 * A number as people reading the page's language write it (Bengali digits for bn; no grouping),
 * with exactly `digits` decimals when given (a column of figures that line up).
 */
export function formatNumber(n, digits) {
  if (digits === undefined) return numbers.format(n);
  const fixed = new Intl.NumberFormat(lang, {
    useGrouping: false,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return fixed.format(n);
}

/**
 * The string `key` with its `{placeholders}` filled from `params`. A plural entry picks its
 * form from `params.count` (the catalogue's Plural-Forms). Numbers are written the language's
 * way. A missing key shows the key itself, so it is easy to spot.
 */
export function t(key, params = {}) {
  let entry = messages[key];
  const count = Number(params.count ?? 0);
  if (Array.isArray(entry)) {
    entry = entry[pluralIndex(count)] ?? entry[entry.length - 1];
  } else if (entry === undefined) {
    entry = EN[key];
    if (entry === undefined) return key;
    if (typeof entry === "object") entry = entry[pluralRules.select(count)] ?? entry.other;
  }
  return entry.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === "number" ? formatNumber(value) : String(value);
  });
}

/** Fill every `data-i18n` (text), `data-i18n-placeholder` and `data-i18n-aria` element under root. */
export function applyStrings(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
  for (const el of root.querySelectorAll("[data-i18n-aria]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nAria));
  }
}

/** Remember `code` for this player (localStorage and the cookie the server reads) and reload. */
export function chooseLanguage(code) {
  if (!LANGUAGES.includes(code)) return;
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    // Private mode: the cookie alone remembers it.
  }
  document.cookie = `${COOKIE}=${code}; path=/; max-age=31536000; SameSite=Lax`;
  const url = new URL(location.href);
  url.searchParams.delete("lang");
  location.replace(url.toString());
}

function storedLanguage() {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function cookieLanguage() {
  const match = document.cookie.match(/(?:^|;\s*)paiute_lang=([a-z]+)/);
  return match ? match[1] : null;
}

// At load: the catalogue the server chose (cookie, then Accept-Language); a choice remembered
// only in localStorage (the cookie was cleared) is restored once; the switcher is wired up.
function init() {
  if (typeof document === "undefined") return;
  const inline = document.getElementById("paiute-i18n");
  if (inline) {
    try {
      setCatalogue(JSON.parse(inline.textContent));
    } catch {
      // A broken catalogue leaves the page in English.
    }
  }
  const stored = storedLanguage();
  const explicit = new URL(location.href).searchParams.get("lang");
  if (!explicit && stored && stored !== lang && LANGUAGES.includes(stored) && cookieLanguage() !== stored) {
    chooseLanguage(stored);
    return;
  }
  const select = document.querySelector("[data-lang-switch]");
  if (select) {
    select.value = lang;
    select.addEventListener("change", () => chooseLanguage(select.value));
  }
}

init();
