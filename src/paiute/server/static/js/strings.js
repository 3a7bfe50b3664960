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
  // A card that is a button: its name starts with the face it shows ("3♣"), so that the words
  // on screen are in its name (WCAG 2.5.3) and speech input can say them.
  "card.button": "{face}, {card}",

  // The coach of a lesson table ("Learn to play", static/js/lesson.js, paiute.server.lesson):
  // the guided first deal of `paiute learn`, worded for taps. lesson.step.* is said when a
  // step begins, lesson.hint.* when an input does not fit it, lesson.say.* answers an input.
  "lesson.title": "Learn to play",
  "lesson.coach": "Coach",
  // The lesson's player, when no name was given (the lobby's name field, or one remembered).
  "lesson.player": "Player",
  "lesson.progress": "Step {n} of {count}",
  "lesson.begin": "Begin",
  "lesson.next": "Go on",
  "lesson.combinations.show": "See the six combinations",
  "lesson.hands": "See every hand",
  "lesson.play_real": "Play a real game",
  "lesson.lobby": "Back to the lobby",
  "lesson.dealing": "The cards are being dealt…",
  "lesson.playing": "{name} is playing…",
  "lesson.ranks.yours": "yours",
  "lesson.ranks.theirs": "{name}'s",
  "lesson.step.welcome":
    "Welcome! You play one prepared deal against two bots, Lani and Kai: about five minutes. The goal: make a winning combination of five or six cards and call it; the best call wins the pot. I will ask you to do each thing once. Press Begin.",
  "lesson.step.wild":
    "The upcard {upcard} lies face up under the stock: its rank is wild, so all {ranks} are wild cards, marked “wild” (R3). A wild card stands for any card you need. One of your cards is wild: tap it.",
  "lesson.step.draw":
    "Your turn. Every turn starts with a draw: the top card of the stock or of the discard pile (R4.2). Draw from the stock now: tap the stock.",
  "lesson.step.discard":
    "You hold six cards: end your turn by discarding one, face up on the discard pile (R4.2). {card} fits nothing in your hand: tap it to discard it.",
  "lesson.step.take":
    "{who} discarded {card}. With your {pair} it makes a pair: take it from the discard pile. Tap the discard pile.",
  "lesson.step.try_taken": "Now try to throw {card} straight back: tap it. Go on, see what the rules say.",
  "lesson.step.discard_other":
    "That is rule R4.3: a card taken from the discard pile stays in your hand for the rest of the turn (it is marked “taken”). Now discard {card}, which does not fit: tap it.",
  "lesson.step.last_round":
    "{who} called {value}! A call starts the last round (R7.2): every player after the caller, up to the dealer, has one more turn. You are the dealer, so you play last. To win you must call a combination that equals or beats {value} (R6.4). Press Go on.",
  "lesson.step.last_draw": "Your last turn: tap the stock to draw.",
  "lesson.step.combinations":
    "Your six cards make a winning combination: {value}. The wild card stands for the card you lack (R3.4). Press “See the six combinations”: they come best first, with the place of yours.",
  "lesson.step.call": "Call it now: press the call button under your hand (the best call).",
  "lesson.step.result":
    "The deal ended after the dealer's turn (R7.3). Only players who call can win, and the highest call takes the pot (R8.1). Now every hand is shown (R9.3): press “See every hand”, then Go on.",
  "lesson.result.won": {
    one: "You won the pot of {count} chip!",
    other: "You won the pot of {count} chips!",
  },
  "lesson.result.lost": "{names} won the pot.",
  "lesson.step.done":
    "That is Paiute: draw, discard, call, and the last round. Now play a real game against bots.",
  "lesson.hint.welcome": "Press Begin to start.",
  "lesson.hint.wild": "Tap your wild card, the one marked “wild”.",
  "lesson.hint.draw": "Tap the stock to draw from it.",
  "lesson.hint.discard": "Discard {card}: tap it.",
  "lesson.hint.take": "Tap the discard pile to take {card}.",
  "lesson.hint.try_taken": "Try to discard {card}, the card you took: tap it.",
  "lesson.hint.discard_other": "Discard {card}: tap it.",
  "lesson.hint.last_round": "Press Go on.",
  "lesson.hint.last_draw": "Tap the stock to draw from it.",
  "lesson.hint.combinations": "Press “See the six combinations”.",
  "lesson.hint.call": "Press the call button to call.",
  "lesson.hint.result": "Press Go on.",
  "lesson.hint.done": "Press “Play a real game” to start a game.",
  "lesson.say.refused": "Not allowed: {reason}.",
  "lesson.say.not_wild": "{card} is not wild: look for the card marked “wild”.",
  "lesson.say.wild": "Right: {card} is wild. It can stand for any card you need, even one you hold (R3.4).",
  "lesson.say.take_this_time": "This time take {card} from the discard pile: tap the discard pile.",
  "lesson.say.stock_this_time":
    "Not this time: tap the stock to draw from it. You take from the discard pile next turn.",
  "lesson.say.took": "You took {card}: everyone saw it (R4.5).",
  "lesson.say.drew": "You drew {card}.",
  "lesson.say.drew_pair": "You drew {card}: a pair with your {pair}.",
  "lesson.say.try_taken_first":
    "First try to discard {card}, the card you just took: see what the rules say.",
  "lesson.say.no_discard_now": "Do not discard now: you can call.",
  "lesson.say.keep": "Keep {card}: it can still help you. Discard {target} instead.",
  "lesson.say.discarded": "Good: {card} is on the discard pile, where everyone sees it (R4.5).",
  "lesson.say.ranks": "{mine} is number {a} of 6 and {who}'s {theirs} number {b}: yours is higher.",
  "lesson.say.rank_first": "First see where your combination ranks; then call.",
  "lesson.say.best_call": "Call the best: {value}.",
  "lesson.say.called": "You called {value}!",

  // Combination values (R5), from their JSON form {"name", "ranks"}.
  "value.five_of_a_kind": "Five of a Kind, {r1}",
  "value.royal_flush": "Royal Flush",
  "value.straight_flush": "Straight Flush, {r1} high",
  "value.four_two": "Four / Two, {r1} over {r2}",
  "value.three_three": "Three / Three, {r1} over {r2}",
  "value.paiute": "Paiute, {r1}/{r2}/{r3}",

  // How to play (templates/rules.html, static/js/rules.js): the players' rules page, /rules.
  // Its facts (the combinations in order, the examples, the presets) come from the engine
  // (paiute.server.guide); these are its sentences. Rule IDs appear beside them, not in them.
  "rules.link": "How to play",
  "rules.link.new_tab": "How to play (opens in a new tab)",
  "rules.learn.heading": "Learn by playing",
  "rules.learn.help":
    "One guided deal against two bots, about five minutes: a coach asks you to do each thing once.",
  "rules.nav": "Help",
  "rules.title": "Paiute — how to play",
  "rules.heading": "How to play Paiute",
  "rules.goal":
    "The goal: draw and discard until your cards make one of six winning combinations, then call. The best call wins the pot.",
  "rules.intro.default": "This page gives the default rules; the other rule sets are explained at the end.",
  "rules.contents": "On this page",
  "rules.deal.heading": "The deal and the wild card",
  "rules.deal.cards": "The dealer deals five cards to each player, one at a time. After each deal, the next player to the left deals.",
  "rules.deal.upcard": "The next card is turned face up: the upcard. Every card of its rank is wild.",
  "rules.deal.example": "For example, when the upcard is {card}, these cards are wild:",
  "rules.deal.wild":
    "A wild card stands for any card you choose, even one you already hold: that is how Five of a Kind is made. A combination with wild cards is worth just as much as the same one without them.",
  "rules.deal.stock":
    "The rest of the pack, face down, is the stock. The upcard lies face up at its bottom, so it is the last card drawn. The discard pile starts empty.",
  "rules.turn.heading": "Your turn",
  "rules.turn.order": "The player to the dealer's left starts, and play goes clockwise.",
  "rules.turn.draw": "First draw one card: the top card of the stock, or the top card of the discard pile.",
  "rules.turn.discard":
    "Then discard one card face up on the discard pile, or call (see below). Between turns you always hold five cards.",
  "rules.turn.rebuild": {
    one: "When the stock runs out, the discard pile except its top card is shuffled into a new stock. If nobody has called and that would happen more than {count} time, the deal is dead: nobody wins and the pot stays for the next deal.",
    other: "When the stock runs out, the discard pile except its top card is shuffled into a new stock. If nobody has called and that would happen more than {count} times, the deal is dead: nobody wins and the pot stays for the next deal.",
  },
  "rules.pile.heading": "The pile rule",
  "rules.pile.text":
    "A card you take from the discard pile stays in your hand for the rest of that turn: you may not throw it straight back, nor put it down when you call. A card drawn from the stock may be discarded at once.",
  "rules.pile.public": "Everyone sees which pile you drew from, and the card you took from the discard pile.",
  "rules.call.heading": "Calling",
  "rules.call.when":
    "After drawing you hold six cards. If they make one of the combinations below, you may call instead of discarding. You never have to.",
  "rules.call.five": "With a five-card combination, show those five cards and put the sixth on the discard pile.",
  "rules.call.six": "With a six-card combination, show all six cards and discard nothing.",
  "rules.call.paiute": "A Paiute (three pairs) may be called only on your first turn of the deal.",
  "rules.call.beat": "After the first call, any later call must equal or beat the best call shown so far.",
  "rules.call.done": "Once you have called, you take no more turns in that deal.",
  "rules.last.heading": "The last round",
  "rules.last.text":
    "After the first call, every player after the caller, up to and including the dealer, has one last turn: draw, then call or discard.",
  "rules.last.dealer": "If the dealer makes the first call, the deal ends at once.",
  "rules.score.heading": "Winning a deal, and the match",
  "rules.score.stake": {
    one: "Before each deal, every player puts the stake into the pot: {count} chip, unless the table sets another.",
    other: "Before each deal, every player puts the stake into the pot: {count} chips, unless the table sets another.",
  },
  "rules.score.win": "When the deal ends, the highest call wins the pot. Only players who called can win.",
  "rules.score.tie":
    "Equal best calls share the pot; chips that do not divide go one at a time to the tied winners, starting from the dealer's left.",
  "rules.score.scale": {
    one: "Some tables use the scale payout instead: there is no pot, and every player who did not win pays the winner {count} chip for each unit of the winning combination (shown with each combination below), twice as much for a call made on the caller's first turn.",
    other: "Some tables use the scale payout instead: there is no pot, and every player who did not win pays the winner {count} chips for each unit of the winning combination (shown with each combination below), twice as much for a call made on the caller's first turn.",
  },
  "rules.score.match":
    "A match is one deal after another. It ends when the table's number of deals has been played, or when a player cannot pay the next stake.",
  "rules.combos.heading": "The winning combinations, best first",
  "rules.combos.intro":
    "Only these six can be called. Plain straights, plain flushes, a full house, or four or three of a kind on their own are worth nothing. Suits never break a tie.",
  "rules.combos.royal_high": "With the option royal_high, the Royal Flush ranks above Five of a Kind.",
  "rules.combo.five_of_a_kind": "Five of a Kind",
  "rules.combo.royal_flush": "Royal Flush",
  "rules.combo.straight_flush": "Straight Flush",
  "rules.combo.four_two": "Four / Two",
  "rules.combo.three_three": "Three / Three",
  "rules.combo.paiute": "Paiute",
  "rules.combo.five_of_a_kind.what": "Five cards of one rank: it needs at least one wild card.",
  "rules.combo.royal_flush.what": "Ace, king, queen, jack and ten of one suit.",
  "rules.combo.straight_flush.what": "Five cards of one suit in sequence; 5-4-3-2-A is the lowest.",
  "rules.combo.four_two.what": "Four cards of one rank and a pair of another rank.",
  "rules.combo.three_three.what": "Two sets of three cards, of two different ranks.",
  "rules.combo.paiute.what": "Three pairs of three different ranks, called on your first turn only.",
  "rules.combo.five_of_a_kind.ties": "Between two of them, the higher rank wins.",
  "rules.combo.royal_flush.ties": "Two Royal Flushes tie.",
  "rules.combo.straight_flush.ties": "Between two of them, the higher top card wins (5-4-3-2-A has 5 on top).",
  "rules.combo.four_two.ties": "Between two of them, the higher four wins, then the higher pair.",
  "rules.combo.three_three.ties": "Between two of them, the higher three wins, then the lower three.",
  "rules.combo.paiute.ties": "Between two of them, the highest pair wins, then the middle pair, then the lowest.",
  "rules.combo.example": "At the table, this example is called “{value}”.",
  "rules.combo.example_hand": "Example: {value}",
  "rules.combo.named": "Here the wild {card} stands for {named}.",
  "rules.combo.cards": { one: "{count} card", other: "{count} cards" },
  "rules.combo.units": { one: "scale payout: {count} unit", other: "scale payout: {count} units" },
  "rules.presets.heading": "Rule sets",
  "rules.presets.intro":
    "Whoever creates a table chooses its rule set (“Rules” in the lobby) and may change single options.",
  "rules.preset.pagat": "The rules of the pagat.com card-game page.",
  "rules.preset.gamerules": "The rules of the translated family-game pages.",
  "rules.preset.same": "Exactly the rules on this page.",
  "rules.preset.differs": "Different from this page:",
  "rules.option.upcard_under_stock.false": "The upcard stays on the table, out of play.",
  "rules.option.open_discard.true": "The top card of the stock is turned face up to start the discard pile.",
  "rules.option.reshuffle_keeps_top.false":
    "When the stock runs out, the whole discard pile is shuffled into the new stock.",
  "rules.option.paiute_any_turn.true": "A Paiute may be called on any turn, not only the first.",

  // The language switcher (each language's own name is not translated).
  "lang.label": "Language",

  // Connection and errors.
  "conn.connecting": "Connecting…",
  "conn.online": "Connected",
  "conn.offline": "Connection lost, reconnecting…",
  "conn.stopped": "Not connected",
  // The banner of a table while the server cannot reach its database.
  "table.service.unavailable":
    "The server cannot reach its database: no move can be played until it is back. Nothing already played is lost.",
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
  // The rule options' names (paiute.rules.OPTIONS) and their choices, for people; the form
  // sends the machine names.
  "option.jokers": "Jokers",
  "option.max_players": "Most players",
  "option.upcard_under_stock": "Upcard under the stock",
  "option.open_discard": "Open discard pile",
  "option.wild_colour": "Wild colour",
  "option.wild_colour.any": "the whole rank",
  "option.wild_colour.opposite": "the other colour only",
  "option.reshuffle_keeps_top": "Rebuild keeps the top discard",
  "option.max_rebuilds": "Stock rebuilds",
  "option.paiute_any_turn": "Paiute on any turn",
  "option.royal_high": "Royal Flush ranks highest",
  "option.payout": "Payout",
  "option.payout.pot": "pot",
  "option.payout.scale": "scale",
  "option.stake": "Stake",
  "option.ties": "Ties",
  "option.ties.split": "split the pot",
  "option.ties.first_call": "first to call takes it",
  "option.unit": "Scale unit",
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
  // "Learn to play" (templates/lobby.html, static/js/learn.js): the guided first deal.
  "lobby.learn.heading": "New to Paiute?",
  "lobby.learn.help":
    "Learn to play in five minutes: one guided deal against two bots, with a coach at every step.",
  "lobby.learn.button": "Learn to play",
  "lobby.level.easy": "easy",
  "lobby.level.medium": "medium",
  "lobby.level.hard": "hard",
  "lobby.level.expert": "expert",
  // Bots that are not levels (a table made through the API may name them).
  "bot.greedy": "greedy",
  "bot.random": "random",
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
  "lobby.create.hints": "Allow hints (the table sees who asks)",
  "lobby.create.rated": "Rated: the match counts for every player's rating",
  "lobby.create.rated.help":
    "Only players logged in to an account can sit down; no bots, a turn clock, no hints. A player who leaves during the match, or whose seat the bot still plays at its end, is placed last.",
  "lobby.create.submit": "Create the table",
  "lobby.create.creating": "Creating…",
  "lobby.list.heading": "Open tables",
  "lobby.list.refresh": "Refresh",
  "lobby.list.empty": "No open tables yet. Create one!",
  "lobby.list.players": "{taken}/{seats} seated",
  "lobby.list.spectators": { one: "{count} watching", other: "{count} watching" },
  "lobby.list.deals": { one: "{count} deal played", other: "{count} deals played" },
  "lobby.list.stake": "stake {stake}",
  "lobby.list.hints": "hints allowed",
  "lobby.list.rated": "rated",
  "lobby.list.status.waiting": "waiting for players",
  "lobby.list.status.playing": "playing",
  "lobby.list.status.closed": "closed",
  "lobby.list.join": "Join {table}",
  "lobby.list.watch": "Watch {table}",
  "lobby.list.resume": "Back to {table}",
  "lobby.join.name_needed": "Enter your name first.",

  // Accounts (optional): the lobby's account bar and its dialog.
  "account.label": "Your account",
  "account.signup": "Sign up",
  "account.login": "Log in",
  "account.logout": "Log out",
  "account.logout_everywhere": "Log out everywhere",
  "account.my_tables": "My tables",
  "account.signed_in": "Logged in as {name}",
  "account.dialog.signup": "Create an account",
  "account.dialog.login": "Log in to your account",
  "account.dialog.help": "An account is optional: it keeps your tables together, on any device.",
  "account.name": "Account name",
  "account.name_needed": "Enter the account's name.",
  "account.password": "Password",
  "account.password.help": "At least {min} characters.",
  "account.password.short": "A password has at least {min} characters.",
  "account.submit.signup": "Create the account",
  "account.submit.login": "Log in",
  "account.cancel": "Cancel",
  "account.signed_up": "Welcome, {name}: your account is made and you are logged in.",
  "account.logged_in": "Welcome back, {name}.",
  "account.claimed": "Seats this browser held, now in your tables: {count}",
  "account.logged_out": "You are logged out on this device.",
  "account.logged_out_everywhere": "You are logged out on every device.",

  // "My tables": an account's tables, live and finished.
  "mine.title": "Paiute — my tables",
  "mine.heading": "My tables",
  "mine.back": "Back to the lobby",
  "mine.login_needed": "Log in from the lobby to see your tables.",
  "mine.empty": "No tables yet: the seats you take while logged in show up here.",
  "mine.seat": "your seat: {seat}",
  "mine.result": {
    one: "finished: place {place} of {of}, {chips} chip ({change})",
    other: "finished: place {place} of {of}, {chips} chips ({change})",
  },
  "mine.resume": "Resume {table}",
  "mine.open": "Open {table}",
  "mine.replay": "Replay {table}",
  "mine.leave": "Leave {table}",
  "mine.left": "You have left {table}.",

  // Ratings (paiute.server.ratings): the leaderboard (/leaderboard) and a player's profile
  // (/players/NAME), from the rated matches between accounts.
  "ratings.link": "Leaderboard",
  "ratings.back": "Back to the lobby",
  "ratings.title": "Paiute — leaderboard",
  "ratings.heading": "Leaderboard",
  "ratings.help":
    "Ratings from rated matches between accounts. Established ratings come first; a rating marked with a question mark is provisional: it settles after more rated matches.",
  "ratings.caption": "Rated players, the best first",
  "ratings.col.rank": "Rank",
  "ratings.col.player": "Player",
  "ratings.col.rating": "Rating",
  "ratings.col.games": "Rated matches",
  "ratings.empty": "No rated matches have been played yet.",
  "ratings.pages": "Pages of players",
  "ratings.provisional": "{rating}?",
  "ratings.provisional.label": "{rating}, provisional",
  "ratings.profile.link": "Profile of {name}",
  "ratings.player.title": "Paiute — {name}",
  "ratings.player.rating": "Rating",
  "ratings.player.deviation": "{rating} ± {deviation}",
  "ratings.player.games": "Rated matches",
  "ratings.player.provisional": "This rating is provisional: it settles after more rated matches.",
  "ratings.player.recent": "Latest rated matches",
  "ratings.player.none": "No rated matches yet.",
  "ratings.result": "Place {place} of {of}: rating {before} → {after} ({change})",
  "ratings.result.private": "a private table",

  // Table page.
  "table.title": "Paiute — {table}",
  "table.back": "Tables",
  "table.rated": "Rated match",
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
  "table.seat.chips": { one: "{chips} chip", other: "{chips} chips" },
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
  "table.pot.value": { one: "{pot} chip", other: "{pot} chips" },
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
  "table.hand.keys": "The arrow keys move between your cards.",
  // Names of the table page's regions, for screen readers.
  "table.area": "Table",
  "table.seats.label": "Seats",
  "table.taken_rule": "{card} came from the discard pile and may not go back this turn (R4.3).",
  "table.draw_stock": "Draw from the stock",
  "table.draw_stock.label": {
    one: "Draw from the stock ({count} card)",
    other: "Draw from the stock ({count} cards)",
  },
  "table.draw_discard": "Take {card} from the discard pile",
  "table.draw_discard.empty": "Take from the discard pile",
  // The empty pile's name holds the word it shows ({empty}: "table.discard.empty").
  "table.draw_discard.none": "Take from the discard pile ({empty})",
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
  "summary.pot": { one: "Pot after the deal: {pot} chip", other: "Pot after the deal: {pot} chips" },
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
  // The end of the match: every seat's place and chips (the most chips first; equal chips share a place).
  "summary.standings": "Final standings",
  "summary.place": "Place",
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
  // The hint button's title: why hints are off for this seat, or that the table sees who asks.
  "hint.off": "Hints are off at this table.",
  "hint.off.people": "Hints are off at a table of people: the table's creator did not allow them.",
  "hint.off.rated": "Hints are off at a rated table: each player plays on their own.",
  "hint.announced": "The table sees that you asked for a hint (never the hint itself).",
  "hint.move": "Recommended: {action}",
  "hint.basis.expert": {
    one: "The expert's move; below, each of the {moves} moves played out {count} time.",
    other: "The expert's move; below, each of the {moves} moves played out {count} times.",
  },
  "hint.within_noise": {
    one: "The playouts rate another move higher, {action}, by {chips} chips, but that is within their noise ({count} playout); the hint keeps the expert's move, {hint}.",
    other:
      "The playouts rate another move higher, {action}, by {chips} chips, but that is within their noise ({count} playouts); the hint keeps the expert's move, {hint}.",
  },
  "hint.beyond_noise": "The playouts rate another move higher, {action}, by {chips} chips ({low} to {high}), beyond their noise; the hint still keeps the expert's move, {hint}: moves chosen by the playouts lost chips against the expert's in play (they play greedy after the move).",
  "hint.feed.avoid": "Not {card}: the next player, {name}, could call at once with it about {chance} of the time (a chance learned from public play, R4.2).",
  "hint.feed.risk": "The next player, {name}, could call at once with {card} about {chance} of the time (a chance learned from public play, R4.2).",
  "hint.table.feed_chance": "Next player could call with it",
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
  "hint.table.net": "Chips you expect to win or lose this deal with each move, after your stake (0 is break-even), with a {level} interval",
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
  "review.figures": "Chips: what a player could expect to win or lose this deal after a move, after their stake (0 is break-even), as the hint gives them. Loss: what the better move is worth more. Marks by the loss as a share of the pot: inaccuracy from 10%, mistake from 20%, blunder from 30%; a smaller loss, or one within the noise of the playouts, is not marked.",
  "review.step.none": "{name}: no loss against the hint's move ({played}).",
  "review.step.loss": "{name}: better {best} ({best_chips}, not {played_chips}); loss {loss}.",
  "review.unmarked.noise": {
    one: "Not marked: within the noise of {count} playout.",
    other: "Not marked: within the noise of {count} playouts.",
  },
  "review.unmarked.small": "Not marked: under {share} of the {stake} chips the deal is played for.",
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
  "event.hint": "{name} asked for a hint",
  "event.rematch": "A rematch table is ready: the same settings, the players who accept",
  "event.closed": "The match is over: {reason}",
  "event.closed.deals": {
    one: "The match is over: its only deal has been played",
    other: "The match is over: its {count} deals have been played",
  },
  "event.closed.stake": {
    one: "The match is over: {names} cannot pay the next stake (R8.2)",
    other: "The match is over: {names} cannot pay the next stake (R8.2)",
  },
  "event.closed.left": "The match is over: every player has left",
  "event.closed.idle": {
    one: "The table has ended: nobody played at it for {count} minute",
    other: "The table has ended: nobody played at it for {count} minutes",
  },
  "event.rebuilt": {
    one: "The stock is rebuilt from {count} discard (R4.6)",
    other: "The stock is rebuilt from {count} discards (R4.6)",
  },
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

// A gettext Plural-Forms expression is C: n, whole numbers, ! * / % + - < <= > >= == != && ||,
// ?: and parentheses. It is parsed here into a function, never run as code: the pages'
// Content-Security-Policy has no 'unsafe-eval' (new Function would throw, and every language
// would get English's two forms: "30 cărți" where Romanian says "30 de cărți").
const PLURAL_TOKEN = /\s*(\d+|n|&&|\|\||[=!<>]=|[-+*/%!<>?:()])\s*/y;
const PLURAL_BINARY = { "||": 1, "&&": 2, "==": 3, "!=": 3, "<": 4, "<=": 4, ">": 4, ">=": 4, "+": 5, "-": 5, "*": 6, "/": 6, "%": 6 };
const PLURAL_APPLY = {
  "||": (a, b) => Number(Boolean(a || b)),
  "&&": (a, b) => Number(Boolean(a && b)),
  "==": (a, b) => Number(a === b),
  "!=": (a, b) => Number(a !== b),
  "<": (a, b) => Number(a < b),
  "<=": (a, b) => Number(a <= b),
  ">": (a, b) => Number(a > b),
  ">=": (a, b) => Number(a >= b),
  "+": (a, b) => a + b,
  "-": (a, b) => a - b,
  "*": (a, b) => a * b,
  "/": (a, b) => Math.trunc(a / b),
  "%": (a, b) => a % b,
};

function pluralTokens(expression) {
  const tokens = [];
  PLURAL_TOKEN.lastIndex = 0;
  while (PLURAL_TOKEN.lastIndex < expression.length) {
    const at = PLURAL_TOKEN.lastIndex;
    const match = PLURAL_TOKEN.exec(expression);
    if (!match) return /^\s*$/.test(expression.slice(at)) ? tokens : null;
    tokens.push(match[1]);
  }
  return tokens;
}

/** The function of n that a Plural-Forms expression is; null when it is not one. */
export function compilePlural(expression) {
  if (typeof expression !== "string") return null;
  const tokens = pluralTokens(expression);
  if (!tokens?.length) return null;
  let at = 0;
  const fail = () => {
    throw new Error("not a plural expression");
  };
  const primary = () => {
    const token = tokens[at++];
    if (token === "n") return (n) => n;
    if (token !== undefined && /^\d+$/.test(token)) return () => Number(token);
    if (token === "!") {
      const operand = primary();
      return (n) => Number(!operand(n));
    }
    if (token === "-") {
      const operand = primary();
      return (n) => -operand(n);
    }
    if (token !== "(") fail();
    const inner = conditional();
    if (tokens[at++] !== ")") fail();
    return inner;
  };
  const binary = (lowest) => {
    let left = primary();
    while (PLURAL_BINARY[tokens[at]] >= lowest) {
      const op = tokens[at++];
      const right = binary(PLURAL_BINARY[op] + 1);
      const [a, b, apply] = [left, right, PLURAL_APPLY[op]];
      left = (n) => apply(a(n), b(n));
    }
    return left;
  };
  const conditional = () => {
    const test = binary(1);
    if (tokens[at] !== "?") return test;
    at += 1;
    const yes = conditional();
    if (tokens[at++] !== ":") fail();
    const no = conditional();
    return (n) => (test(n) ? yes(n) : no(n));
  };
  try {
    const fn = conditional();
    if (at !== tokens.length) fail();
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

/** The plural form (0, 1, ...) of the page's language for the count `n` (its Plural-Forms). */
export function pluralForm(n) {
  return pluralIndex(n);
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
 * Chips as the terminal's hint and review write them (paiute.i18n.format_chips): signed, two
 * decimals, in the page's digits (+0.40, -1.25; break-even +0.00; an unknown bound "?").
 * `signed: false` for an amount that is never negative, such as a loss (0.56).
 */
export function formatChips(x, { signed = true } = {}) {
  if (x === null || x === undefined || !Number.isFinite(x)) return "?";
  // To the thousandth (as the JSON gives it), then the hundredth, halves away from zero: the
  // terminal's digits exactly (paiute.i18n.chips_in_hundredths).
  const hundredths = Math.floor((Math.round(Math.abs(x) * 1000) + 5) / 10);
  const sign = x < 0 && hundredths > 0 ? "-" : signed ? "+" : "";
  return sign + formatNumber(hundredths / 100, 2);
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
