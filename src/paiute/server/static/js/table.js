// The table page: draws the View the server sends (web contract) and turns clicks and taps
// into actions. The page never decides what is legal: buttons follow the observation's
// legal_actions, and a refusal from the server is shown with its rule ID.

import { setNotify, setSound, setTitle, soundOn, yourTurn } from "./alerts.js";
import {
  TableSocket,
  api,
  errorText,
  forget,
  getSeatToken,
  mergePresence,
  recall,
  remember,
  setSeatToken,
} from "./api.js";
import { cardBack, cardElement, cardRow, cardShort, sortCards, valueText } from "./cards.js";
import { applyStrings, formatNumber, t } from "./strings.js";
import {
  isLesson,
  lessonAnswered,
  lessonCard,
  lessonCardsOpen,
  lessonMove,
  lessonTitle,
  renderCoach,
  say,
  wireCoach,
} from "./lesson.js";
import { renderSummary } from "./summary.js";
import { botName, drawnCard, eventLines, lastActions, parseAction, seatName } from "./words.js";

const $ = (id) => document.getElementById(id);
const app = $("app");
const tableId = app.dataset.tableId;
const LOG_LIMIT = 200;
const LOG_BACKFILL = 40;
const KEPT_DEALS = 20; // deals whose commitments this browser remembers, per table

const state = {
  view: null,
  token: null,
  invite: null,
  busy: false, // an action is on its way: controls wait for its ack (no double sends)
  log: [], // events, oldest first
  lastLogVersion: 0,
  summaryShown: null, // the deal whose summary the page opened by itself
  summaryHidden: false,
  summaryPinned: false, // opened by hand: stays open even when it is this seat's move
  clockTimer: null,
  messageTimer: null,
  cutPosition: null,
  cutFor: null, // the commitment the proposed cut position is for
  seen: null, // what the last render showed (the discard top, the hand, the calls): what is new moves
  handIndex: 0, // the hand's one Tab stop (roving tabindex): the position of the card that has it
  refocus: null, // after a move made from the keyboard: "drawn" (the card drawn) or "hand"
  lastStatus: null, // the status of the last render that had a finished deal
};

// ---------------------------------------------------------------- small helpers

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function show(id, visible) {
  $(id).hidden = !visible;
}

/** Deal numbers as shown (the API counts deals from 1, like people do). */
function dealLabel(n) {
  return n === null || n === undefined ? "" : n;
}

function seatCount(view) {
  return view.table?.seats ?? view.names?.length ?? 0;
}

function packSize(view) {
  const rules = view.table?.rules ?? view.observation?.rules ?? {};
  return rules.jokers ? 54 : 52;
}

function showMessage(text) {
  const box = $("message");
  box.textContent = text;
  box.hidden = !text;
  clearTimeout(state.messageTimer);
  if (text) state.messageTimer = setTimeout(() => (box.hidden = true), 12000);
}

function secureRandomBelow(n) {
  const words = new Uint32Array(1);
  const limit = Math.floor(0x100000000 / n) * n; // reject the biased tail
  do crypto.getRandomValues(words);
  while (words[0] >= limit);
  return words[0] % n;
}

// ---------------------------------------------------------------- sending

const socket = { current: null };

/**
 * Send a message with an id; `lock` keeps the game's controls disabled until its answer.
 * Resolves with the server's ack (undefined after a refusal, which is shown).
 */
async function send(message, { lock = true } = {}) {
  if (!socket.current) return undefined;
  if (lock) {
    state.busy = true;
    render();
  }
  showMessage("");
  try {
    return await socket.current.send(message);
  } catch (error) {
    showMessage(errorText(error));
    return undefined;
  } finally {
    if (lock) {
      state.busy = false;
      render();
    }
  }
}

function act(action) {
  // A move made from a control that the answer takes away (a draw button, a call): the
  // keyboard goes on to the hand, to the card drawn after a draw (renderHand).
  const from = document.activeElement;
  if (from && from !== document.body && !$("hand").contains(from) && from.closest("#app")) {
    state.refocus = action.startsWith("draw") ? "drawn" : "hand";
  }
  // expected_version stays null: a chat line or a join between render and tap must not make
  // the action stale; the server checks legality and the id makes a resend harmless. At a
  // lesson table the move goes to the coach, who answers it (lesson.js).
  const message = lessonMove(state.view, action) ?? { type: "action", action, expected_version: null };
  return send(message)
    .then(lessonAnswered)
    .finally(() => {
      state.refocus = null;
    });
}

// ---------------------------------------------------------------- rendering

function render() {
  const view = state.view;
  if (!view) return;
  const obs = view.observation;
  // Plain facts on the root element, for styling and for the browser tests.
  app.dataset.version = String(view.version);
  app.dataset.status = view.status;
  app.dataset.deal = String(view.deal_number ?? "");
  app.dataset.you = view.you === null || view.you === undefined ? "" : String(view.you);
  app.dataset.busy = String(state.busy);
  app.dataset.phase = obs?.phase ?? "";
  app.dataset.turn = obs && view.status === "playing" ? String(obs.current_seat) : "";
  // Whether this seat may ask for hints, and why (hints.reason: alone, allowed, people, rated).
  app.dataset.hints = view.hints?.on === false ? "off" : "on";
  app.dataset.hintsReason = view.hints?.reason ?? "";
  renderHeader(view);
  renderSeats(view, obs);
  renderFelt(view, obs);
  renderPrompt(view, obs);
  renderHand(view, obs);
  renderCut(view);
  renderWaiting(view);
  renderAutoplay(view);
  renderRematch(view);
  renderSide(view, obs);
  renderLog(view);
  renderCoach(view, { busy: state.busy });
  maybeSummary(view);
  yourTurn(isMyMove(view), $("prompt").textContent);
  rememberSeen(view, obs);
}

function seated(view) {
  return view.you !== null && view.you !== undefined;
}

/** Whether this seat must act now (cut or play), and not the bot for it. */
function isMyMove(view) {
  if (!seated(view) || view.table?.players?.[view.you]?.autoplay) return false;
  if (view.status === "cut") return view.cutter === view.you;
  const obs = view.observation;
  return view.status === "playing" && Boolean(obs) && obs.current_seat === view.you && obs.phase !== "over";
}

/** What the page showed, so that the next render moves only what is new (a draw, a discard, a call). */
function rememberSeen(view, obs) {
  const pile = obs?.discard_pile ?? [];
  state.seen = {
    deal: view.deal_number,
    status: view.status,
    top: pile.length ? pile[pile.length - 1] : null,
    hand: new Set(obs?.hand ?? []),
    calls: new Set((obs?.calls ?? []).map((c) => c.seat)),
  };
}

/** Whether `what` is new since the last render of the same deal (the first render moves nothing). */
function isNew(view, test) {
  const seen = state.seen;
  if (!seen || seen.deal !== view.deal_number || seen.status === "cut") return false;
  return test(seen);
}

function renderHeader(view) {
  const name = lessonTitle(view) ?? view.table?.name ?? tableId;
  $("table-name").textContent = name;
  $("rated-tag").hidden = !view.table?.rated;
  setTitle(t("table.title", { table: name }));
  const deal = dealLabel(view.deal_number);
  // A table that ended because nobody played says so (its `closed` event, from the log).
  const ended = view.status === "closed" ? state.log.findLast((e) => e.type === "closed") : null;
  $("table-status").textContent = ended?.idle_minutes
    ? t("event.closed.idle", { count: ended.idle_minutes })
    : t(`table.status.${view.status}`, { deal });
  const summary = $("open-summary");
  summary.hidden = !view.last_deal;
  if (view.last_deal) summary.textContent = t("summary.heading", { deal: dealLabel(view.last_deal.deal) });
}

function renderSeats(view, obs) {
  const list = $("seats");
  list.replaceChildren();
  const n = seatCount(view);
  const players = view.table?.players ?? [];
  // During the cut the observation is still the last deal's: the seats show none of it (its
  // dealer, its calls, its last moves), only the new deal's dealer and cutter.
  const inDeal = Boolean(obs) && (view.status === "playing" || view.status === "deal_over");
  const dealObs = inDeal ? obs : null;
  const last = dealObs ? lastActions(dealObs) : new Map();
  const calls = new Map((dealObs?.calls ?? []).map((c) => [c.seat, c]));
  const wild = dealObs?.wild_cards ?? [];
  const playing = dealObs && dealObs.phase !== "over" && view.status === "playing";
  const inMatch = ["cut", "playing", "deal_over"].includes(view.status);
  const host = view.table?.host;
  for (let seat = 0; seat < n; seat += 1) {
    const player = players.find((p) => p.seat === seat) ?? {};
    const li = el("li", "seat");
    li.dataset.seat = String(seat);
    if (seat === view.you) li.classList.add("me");
    const actor = playing ? dealObs.current_seat : view.status === "cut" ? view.cutter : null;
    if (actor === seat) li.classList.add("turn");
    if (player.autoplay && inMatch) li.classList.add("autoplay");
    const head = el("div", "seat-head");
    const seatTaken = player.taken || player.bot || view.names?.[seat];
    const nameText = seatTaken ? seatName(view, seat) : t("table.seat.empty");
    const name = el("span", "seat-name");
    name.title = nameText;
    if (player.account) {
      // A rated table's seat is an account's: its name opens the player's profile.
      const profile = el("a", "profile-link", nameText);
      profile.href = `/players/${encodeURIComponent(player.account)}`;
      profile.title = t("ratings.profile.link", { name: player.account });
      name.append(profile);
    } else {
      name.textContent = nameText;
    }
    head.append(name);
    const tags = el("span", "tags");
    if (seat === view.you) tags.append(el("span", "tag you", t("table.seat.you")));
    const dealer = view.status === "cut" ? view.dealer : dealObs?.dealer;
    if (dealer === seat && (inDeal || view.status === "cut")) {
      tags.append(el("span", "tag dealer", t("table.seat.dealer")));
    }
    if (view.status === "cut" && view.cutter === seat) tags.append(el("span", "tag turn", t("table.seat.cutter")));
    if (playing && dealObs.current_seat === seat) tags.append(el("span", "tag turn", t("table.seat.turn")));
    if (player.bot) tags.append(el("span", "tag bot", t("table.seat.bot", { spec: botName(player.bot) })));
    if (player.autoplay && inMatch) tags.append(el("span", "tag autoplay", t("table.seat.autoplay")));
    const person = player.taken && !player.bot;
    if (person && !player.autoplay && player.connected === false) {
      tags.append(el("span", "tag offline", t("table.seat.offline")));
    }
    head.append(tags);
    li.append(head);
    if (person && !player.autoplay && player.away_until) {
      const away = el("div", "seat-away");
      away.dataset.deadline = String(player.away_until);
      away.dataset.key = "table.seat.away";
      li.append(away);
    }
    if (view.clock && view.clock.seat === seat && inMatch) {
      const clock = el("div", "seat-clock");
      clock.dataset.deadline = String(view.clock.deadline);
      clock.dataset.turnDeadline = String(view.clock.turn_deadline ?? view.clock.deadline);
      li.append(clock);
    }
    const facts = el("div", "seat-facts");
    const chips = view.balances?.[seat];
    if (chips !== undefined) facts.append(el("span", "chips", t("table.seat.chips", { chips, count: chips })));
    if (dealObs) {
      const held = dealObs.hand_sizes?.[seat] ?? 0;
      const backs = el("span", "backs");
      for (let i = 0; i < Math.min(held, 6); i += 1) backs.append(cardBack());
      const count = el("span", "count", t("table.seat.cards", { count: held }));
      facts.append(backs, count);
    }
    li.append(facts);
    if (dealObs) {
      const call = calls.get(seat);
      if (call) {
        const line = el("div", "seat-call");
        if (isNew(view, (seen) => !seen.calls.has(seat))) line.classList.add("arrive");
        line.append(el("span", "", t("table.seat.called", { value: valueText(call.value) })));
        line.append(cardRow(call.cards, wild));
        li.append(line);
      } else if (last.has(seat)) {
        li.append(el("div", "seat-last", last.get(seat)));
      }
      const known = dealObs.known_cards?.[seat] ?? [];
      if (known.length && seat !== view.you && !call) {
        const line = el("div", "seat-known");
        line.append(el("span", "", t("table.seat.holds")));
        line.append(cardRow(known, wild));
        li.append(line);
      }
    }
    // The host may let the bot play a seat whose player is not there (BGA's "expel", kinder).
    const absent = person && !player.autoplay && player.connected === false;
    if (inMatch && absent && seated(view) && view.you === host && seat !== view.you) {
      const button = el("button", "button ghost small", t("table.seat.hand_to_bot"));
      button.type = "button";
      button.dataset.handTo = String(seat);
      button.addEventListener("click", () => send({ type: "hand_to_bot", target: seat }, { lock: false }));
      li.append(button);
    }
    list.append(li);
  }
  tickClocks();
}

function renderFelt(view, obs) {
  const visible = Boolean(obs) && (view.status === "playing" || view.status === "deal_over");
  show("felt", visible);
  show("last-round", false);
  if (!visible) return;
  const wild = obs.wild_cards ?? [];
  const legal = obs.legal_actions ?? [];
  const canAct = !state.busy;

  const upcard = $("upcard");
  upcard.replaceChildren();
  if (obs.upcard) upcard.append(cardElement(obs.upcard, { wild: wild.includes(obs.upcard) }));
  const wildNote = $("wild");
  wildNote.replaceChildren();
  if (!obs.upcard) {
    wildNote.append(el("span", "", t("table.upcard.none")));
  } else {
    const ranks = t(`ranks.${obs.upcard[0]}`);
    const key = obs.rules?.wild_colour === "opposite" ? "table.wild.opposite" : "table.wild.rank";
    wildNote.append(el("span", "", t(key, { ranks })));
  }
  wildNote.append(cardRow(wild, wild));

  $("stock-size").textContent = t("table.stock.size", { count: obs.stock_size });
  const notes = [];
  if (obs.stock_bottom) notes.push(t("table.stock.upcard_bottom"));
  if (obs.rebuilds) notes.push(t("table.stock.rebuilt", { count: obs.rebuilds }));
  $("stock-note").textContent = notes.join(" · ");
  const stockButton = $("draw-stock");
  stockButton.disabled = !(canAct && legal.includes("draw stock"));
  stockButton.setAttribute("aria-label", t("table.draw_stock.label", { count: obs.stock_size }));

  const pile = obs.discard_pile ?? [];
  const top = pile.length ? pile[pile.length - 1] : null;
  const discardButton = $("draw-discard");
  discardButton.replaceChildren();
  if (top) {
    const card = cardElement(top, { wild: wild.includes(top) });
    if (isNew(view, (seen) => seen.top !== top)) card.classList.add("arrive", "from-seat");
    discardButton.append(card);
  } else discardButton.append(el("span", "empty-pile", t("table.discard.empty")));
  discardButton.disabled = !(canAct && legal.includes("draw discard"));
  discardButton.setAttribute(
    "aria-label",
    top ? t("table.draw_discard", { card: cardShort(top) }) : t("table.draw_discard.none", { empty: t("table.discard.empty") }),
  );
  $("discard-history-label").textContent = t("table.discard.history", { count: pile.length });
  const history = $("discard-history-cards");
  history.replaceChildren(cardRow(pile, wild));
  const pot = view.pot ?? obs.pot;
  $("pot").textContent = t("table.pot.value", { pot, count: pot });

  if (obs.highest_call && obs.phase !== "over") {
    const box = $("last-round");
    box.textContent = t("table.last_round", { value: valueText(obs.highest_call) });
    box.hidden = false;
  }
}

function renderPrompt(view, obs) {
  const prompt = $("prompt");
  let text = "";
  if (view.status === "playing" && obs) {
    const mine = view.you !== null && obs.current_seat === view.you && obs.phase !== "over";
    const legal = obs.legal_actions ?? [];
    if (obs.phase === "over") text = t("table.turn.over");
    else if (!mine) text = t("table.turn.other", { name: seatName(view, obs.current_seat) });
    else if (obs.phase === "draw") {
      text = legal.includes("draw discard") ? t("table.turn.you.draw") : t("table.turn.you.draw_stock");
    } else {
      const canCall = legal.some((a) => a.startsWith("call"));
      text = canCall ? t("table.turn.you.discard") : t("table.turn.you.discard_nocall");
    }
  } else if (view.status === "deal_over") {
    text = t("table.turn.over");
  } else if (view.you !== null && view.you !== undefined) {
    text = t("table.you_are", { name: seatName(view, view.you), seat: view.you + 1 });
  }
  prompt.textContent = text;
  const myTurn = Boolean(obs) && view.status === "playing" && obs.current_seat === view.you;
  prompt.classList.toggle("my-turn", myTurn);
  renderClock(view);
}

function renderClock(view) {
  const clock = $("clock");
  const running = view.clock && view.status !== "deal_over" && view.status !== "closed";
  clock.hidden = !running;
  if (running) {
    clock.dataset.deadline = String(view.clock.deadline);
    clock.dataset.turnDeadline = String(view.clock.turn_deadline ?? view.clock.deadline);
  } else {
    delete clock.dataset.deadline;
  }
  tickClocks();
  if (!state.clockTimer) state.clockTimer = setInterval(tickClocks, 1000);
}

/** Every countdown on the page (the prompt's clock, the seat's, a grace period): from deadlines. */
function tickClocks() {
  const now = Date.now() / 1000;
  for (const node of document.querySelectorAll("[data-deadline]")) {
    const left = Math.max(0, Math.round(Number(node.dataset.deadline) - now));
    if (node.dataset.key) {
      node.textContent = t(node.dataset.key, { seconds: left });
      continue;
    }
    const turnLeft = Math.round(Number(node.dataset.turnDeadline ?? node.dataset.deadline) - now);
    // First the turn's own time, then the time bank (lichess's increment, BGA's extra time).
    node.textContent = turnLeft > 0 ? t("table.clock", { seconds: turnLeft }) : t("table.clock.bank", { seconds: left });
    node.classList.toggle("urgent", left <= 10);
    node.classList.toggle("bank", turnLeft <= 0);
  }
}

function renderHand(view, obs) {
  const seated = view.you !== null && view.you !== undefined;
  const inDeal = Boolean(obs) && (view.status === "playing" || view.status === "deal_over");
  show("spectator-note", !seated);
  show("hand-box", seated && inDeal);
  const hand = $("hand");
  // Where the keyboard was: the same card when it is still held, else the card now in the
  // same place (after a discard), so that a move never sends the focus back to the page's top.
  const active = document.activeElement;
  const inHand = hand.contains(active) && active !== hand;
  const focusedCard = inHand ? active.dataset.card : null;
  const focusedAt = inHand ? [...hand.querySelectorAll("[data-card]")].indexOf(active) : -1;
  hand.replaceChildren();
  if (!seated || !inDeal) return;
  const wild = obs.wild_cards ?? [];
  const legal = obs.legal_actions ?? [];
  const drawn = drawnCard(obs);
  const taken = obs.taken_card;
  const myTurn = view.status === "playing" && obs.current_seat === view.you && obs.phase !== "over";
  hand.classList.toggle("active", myTurn && obs.phase === "discard");
  const cards = sortCards(obs.hand.filter((c) => c !== drawn));
  if (drawn && obs.hand.includes(drawn)) cards.push(drawn);
  if (!cards.length) hand.append(el("p", "muted", t("table.hand.none")));
  // Cards that may not be discarded now stay focusable (aria-disabled), so that the hand can
  // be read from the keyboard at any time and keeps the focus between turns.
  const buttons = cards.map((card) => {
    const action = `discard ${card}`;
    const button = cardElement(card, {
      button: true,
      wild: wild.includes(card),
      drawn: card === drawn && card !== taken,
      taken: myTurn && card === taken,
    });
    button.dataset.action = action;
    // At a lesson table every card takes a click: the coach answers it (lesson.js).
    const open = isLesson(view) ? lessonCardsOpen(view) : legal.includes(action);
    button.setAttribute("aria-disabled", String(state.busy || !open));
    button.tabIndex = -1;
    button.addEventListener("click", () => {
      if (button.getAttribute("aria-disabled") === "true") return;
      if (isLesson(view)) say(lessonCard(view, card));
      else act(action);
    });
    if (isNew(view, (seen) => !seen.hand.has(card))) button.classList.add("arrive", "drawn-in");
    hand.append(button);
    return button;
  });
  placeHandFocus(buttons, cards, { focusedCard, focusedAt, active, drawn });
  const takenNote = $("taken-note");
  takenNote.hidden = !(myTurn && taken && obs.phase === "discard");
  if (!takenNote.hidden) takenNote.textContent = t("table.taken_rule", { card: cardShort(taken) });

  // The draw buttons, disabled when this seat may not draw; out of the way while it discards.
  const discarding = myTurn && obs.phase === "discard";
  show("action-bar", view.status === "playing" && obs.phase !== "over" && !discarding);
  const drawStock = $("btn-draw-stock");
  drawStock.disabled = state.busy || !legal.includes("draw stock");
  const drawDiscard = $("btn-draw-discard");
  const pile = obs.discard_pile ?? [];
  const top = pile.length ? pile[pile.length - 1] : null;
  drawDiscard.textContent = top
    ? t("table.draw_discard", { card: cardShort(top) })
    : t("table.draw_discard.empty");
  drawDiscard.disabled = state.busy || !legal.includes("draw discard");
  renderCalls(view, obs, legal, wild);
}

/**
 * The hand is one Tab stop (roving tabindex): one card has tabindex 0, the arrow keys move it.
 * After a render the focus stays where it was (the same card, else the same place); a move
 * made from the keyboard elsewhere brings it to the hand: to the card drawn after a draw.
 */
function placeHandFocus(buttons, cards, { focusedCard, focusedAt, active, drawn }) {
  if (!buttons.length) return;
  const last = buttons.length - 1;
  let index = Math.min(state.handIndex, last);
  let focus = false;
  if (focusedCard) {
    const same = cards.indexOf(focusedCard);
    index = same >= 0 ? same : Math.min(Math.max(focusedAt, 0), last);
    focus = true;
  }
  // The control the move was made from is gone, disabled or hidden by the move's answer.
  const lost =
    !active || active === document.body || !active.isConnected || active.disabled || Boolean(active.closest("[hidden]"));
  if (state.refocus === "drawn" && drawn && cards.includes(drawn) && (focus || lost)) {
    index = cards.indexOf(drawn);
    focus = true;
    state.refocus = null;
  } else if (state.refocus === "hand" && lost) {
    focus = true;
    state.refocus = null;
  }
  setHandStop(buttons, index);
  if (focus) buttons[index].focus();
}

function setHandStop(buttons, index) {
  buttons.forEach((button, i) => (button.tabIndex = i === index ? 0 : -1));
  state.handIndex = index;
}

/** Arrow keys (and Home, End) move between the cards of the hand, round from the last to the first. */
function onHandKey(event) {
  const buttons = [...$("hand").querySelectorAll("button[data-card]")];
  const at = buttons.indexOf(document.activeElement);
  if (at < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
  const targets = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: -1 };
  if (!(event.key in targets)) return;
  event.preventDefault();
  const index = (targets[event.key] + buttons.length) % buttons.length;
  setHandStop(buttons, index);
  buttons[index].focus();
}

function callPreview(shown, discard, wild) {
  const box = el("div", "call-preview");
  box.append(el("span", "muted", t("table.call.shows")), cardRow(shown, wild));
  box.append(
    el(
      "span",
      "muted",
      discard ? t("table.call.puts_down", { card: cardShort(discard) }) : t("table.call.six"),
    ),
  );
  return box;
}

function renderCalls(view, obs, legal, wild) {
  const callActions = legal.filter((a) => a.startsWith("call"));
  const box = $("call-box");
  box.hidden = !callActions.length;
  const bestBox = $("best-call");
  bestBox.replaceChildren();
  const othersList = $("other-calls-list");
  othersList.replaceChildren();
  if (!callActions.length) return;
  const best = view.best_call;
  if (best) {
    const value = valueText(best.value) || best.text;
    bestBox.append(el("p", "best-value", t("table.call.best", { value })));
    const row = el("div", "call-row");
    const button = el("button", "button call", t("table.call.button", { value }));
    button.type = "button";
    button.id = "call-best";
    button.dataset.action = best.action;
    button.disabled = state.busy;
    button.addEventListener("click", () => act(best.action));
    row.append(callPreview(best.shown, best.discard, wild), button);
    bestBox.append(row);
  }
  // The other legal calls: value texts when the server lists them, else the cards they show.
  const described = new Map((view.call_options ?? []).map((option) => [option.action, option]));
  const others = callActions.filter((a) => a !== best?.action);
  $("other-calls").hidden = !others.length;
  for (const action of others) {
    const { card } = parseAction(action);
    const shown = obs.hand.filter((c) => c !== card);
    const option = described.get(action);
    const value = option ? valueText(option.value) || option.text : null;
    let label;
    if (!card) label = value ? t("table.call.button", { value }) : t("table.call.other.six");
    else if (value) label = t("table.call.other.button_value", { value, card: cardShort(card) });
    else label = t("table.call.other.button", { card: cardShort(card) });
    const item = el("div", "other-call");
    item.append(callPreview(shown, card, wild));
    const button = el("button", "button", label);
    button.type = "button";
    button.dataset.action = action;
    button.disabled = state.busy;
    button.addEventListener("click", () => act(action));
    item.append(button);
    othersList.append(item);
  }
}

// ---------------------------------------------------------------- the cut (R2.4, R10.2)

function renderCut(view) {
  const cutting = view.status === "cut";
  show("cut-box", cutting);
  if (!cutting) return;
  const hash = view.commitment?.sha256 ?? "";
  $("cut-hash").textContent = hash;
  rememberCommitment(view, true);
  const mine = view.you !== null && view.you !== undefined && view.cutter === view.you;
  show("cut-controls", mine);
  show("cut-waiting", !mine);
  if (!mine) {
    $("cut-waiting").textContent = t("table.cut.waiting", { name: seatName(view, view.cutter) });
    return;
  }
  const size = packSize(view);
  const range = $("cut-range");
  const number = $("cut-number");
  range.max = String(size - 1);
  number.max = String(size - 1);
  if (state.cutFor !== hash || state.cutPosition === null || state.cutPosition >= size) {
    // A fresh pack to cut: this browser proposes its own random position (R2.4, R10.2).
    state.cutFor = hash;
    state.cutPosition = secureRandomBelow(size);
  }
  range.value = String(state.cutPosition);
  number.value = String(state.cutPosition);
  $("cut-label").textContent = t("table.cut.position.value", { position: state.cutPosition, size });
  $("cut-button").disabled = state.busy;
}

function setCut(value) {
  const size = packSize(state.view);
  const position = Math.max(0, Math.min(size - 1, Math.round(Number(value) || 0)));
  state.cutPosition = position;
  $("cut-range").value = String(position);
  $("cut-number").value = String(position);
  $("cut-label").textContent = t("table.cut.position.value", { position, size });
}

function doCut() {
  const position = state.cutPosition;
  const hash = state.view?.commitment?.sha256;
  if (hash) remember(`pending.${tableId}`, { sha256: hash, myCut: position });
  state.refocus = "hand"; // the cut's controls go: the keyboard goes on to the hand dealt
  send({ type: "cut", position }).finally(() => {
    state.refocus = null;
  });
}

/**
 * Keep the commitments this page saw (R10.2): the pack's hash while the cut is pending, and
 * the rebuild hashes during the deal, so that the summary can compare them with the proof.
 */
function rememberCommitment(view, beforeCut) {
  const commitment = view.commitment;
  if (!commitment?.sha256) return;
  if (beforeCut) {
    const pending = recall(`pending.${tableId}`);
    if (pending?.sha256 !== commitment.sha256) remember(`pending.${tableId}`, { sha256: commitment.sha256 });
    return;
  }
  if (view.deal_number === null || view.deal_number === undefined) return;
  const key = `commit.${tableId}.${view.deal_number}`;
  const known = recall(key);
  const pending = recall(`pending.${tableId}`);
  const entry = known?.sha256 === commitment.sha256 ? known : { sha256: commitment.sha256, beforeCut: false };
  if (pending?.sha256 === commitment.sha256) {
    entry.beforeCut = true;
    if (pending.myCut !== undefined) entry.myCut = pending.myCut;
  }
  // What the deal looked like from here at first sight: the upcard (R2.6) and, before this
  // seat has played, its five cards as dealt (R2.5); the proof must agree with both.
  const obs = view.observation;
  if (!entry.table && obs) {
    const played = (obs.history ?? []).some((event) => event.seat === obs.seat);
    const hand = obs.seat !== null && !played && obs.hand.length === 5 ? [...obs.hand] : null;
    entry.table = { dealer: obs.dealer, players: obs.players, upcard: obs.upcard, seat: obs.seat, hand };
  }
  // A rebuild hash is kept the first time it is seen; a later, different one would not replace it.
  const rebuilds = entry.rebuilds ?? [];
  (commitment.rebuilds ?? []).forEach((r, i) => {
    if (!rebuilds[i]) rebuilds[i] = r.sha256;
  });
  entry.rebuilds = rebuilds;
  remember(key, entry);
  forget(`commit.${tableId}.${view.deal_number - KEPT_DEALS}`); // old deals: storage stays small
}

// ---------------------------------------------------------------- waiting, joining, starting

function renderWaiting(view) {
  const waiting = view.status === "waiting";
  show("waiting-box", waiting);
  const seated = view.you !== null && view.you !== undefined;
  if (!waiting) return;
  // A seated player is told what they wait for, not asked to take a seat they hold.
  $("waiting-heading").textContent = seated ? t("table.waiting.heading") : t("table.join.heading");
  show("start-box", seated);
  $("start-button").disabled = state.busy;
  const free = (view.table?.players ?? []).filter((p) => !p.taken && !p.bot).map((p) => p.seat);
  show("join-form", !seated && free.length > 0);
  show("join-full", !seated && free.length === 0);
  if (seated || !free.length) return;
  const seats = $("join-seats");
  if (seats.dataset.free === free.join(",")) return; // keep focus and typing intact
  seats.dataset.free = free.join(",");
  seats.replaceChildren(
    ...free.map((seat) => {
      const button = el("button", "button primary", t("table.join.seat", { seat: seat + 1 }));
      button.type = "button";
      button.dataset.seat = String(seat);
      button.addEventListener("click", () => join(seat));
      return button;
    }),
  );
}

async function join(seat) {
  const name = $("join-name").value.trim();
  if (!name) {
    showMessage(t("lobby.join.name_needed"));
    $("join-name").focus();
    return;
  }
  remember("name", name);
  try {
    const answer = await api(`/api/tables/${encodeURIComponent(tableId)}/join`, {
      method: "POST",
      body: { name, seat, invite: state.invite },
    });
    state.token = answer.token;
    setSeatToken(tableId, answer.token);
    showMessage("");
    socket.current.reconnect(answer.token);
  } catch (error) {
    showMessage(errorText(error));
  }
}

// ---------------------------------------------------------------- the bot for an absent seat, leaving, the rematch

function renderAutoplay(view) {
  const reason = seated(view) ? view.table?.players?.[view.you]?.autoplay : null;
  const playing = ["cut", "playing", "deal_over"].includes(view.status);
  show("autoplay-box", Boolean(reason) && playing);
  if (reason) $("autoplay-note").textContent = t(reason === "left" ? "table.autoplay.left" : "table.autoplay.away");
  $("return-button").disabled = state.busy;
  const leave = $("leave-button");
  leave.hidden = !seated(view) || Boolean(reason) || !(playing || view.status === "waiting");
  // The last person at the table who leaves ends the match (nobody would be left to play with).
  const others = (view.table?.players ?? []).filter(
    (p) => p.seat !== view.you && p.taken && !p.bot && p.autoplay !== "left",
  );
  const key = view.status === "waiting" ? "table.leave" : others.length ? "table.leave.match" : "table.leave.last";
  leave.textContent = t(key);
}

function renderRematch(view) {
  const closed = view.status === "closed";
  const person = seated(view) && !view.table?.players?.[view.you]?.bot;
  const rematch = closed && person && !view.table?.lesson; // a lesson ends with a real game
  show("rematch-box", rematch);
  show("summary-rematch", rematch); // the last deal's summary is open at the end
  if (!closed) return;
  const made = view.table?.rematch;
  $("rematch-note").textContent = t(made ? "table.rematch.ready" : "table.rematch.note");
  const label = t(made ? "table.rematch.join" : "table.rematch.button");
  $("rematch-button").textContent = label;
  $("summary-rematch").textContent = label;
}

async function rematch() {
  try {
    const answer = await api(`/api/tables/${encodeURIComponent(tableId)}/rematch`, {
      method: "POST",
      token: state.token,
    });
    const id = answer.table.id;
    setSeatToken(id, answer.token);
    if (answer.invite) remember(`invite.${id}`, answer.invite);
    location.assign(`/t/${encodeURIComponent(id)}`);
  } catch (error) {
    showMessage(errorText(error));
  }
}

function leave() {
  if (state.view?.status === "waiting") {
    send({ type: "leave" }).then(() => {
      setSeatToken(tableId, null);
      state.token = null;
      socket.current.reconnect(null);
    });
  } else {
    send({ type: "leave" });
  }
}

function onPresence(frame) {
  if (!state.view?.table?.players) return;
  mergePresence(state.view, frame);
  render();
}

function wireAlerts() {
  const sound = $("alert-sound");
  const notify = $("alert-notify");
  sound.checked = soundOn();
  notify.checked = recall("alerts.notify") === true && "Notification" in window && Notification.permission === "granted";
  sound.addEventListener("change", () => setSound(sound.checked));
  notify.addEventListener("change", async () => {
    const wanted = notify.checked;
    const on = await setNotify(wanted);
    notify.checked = on;
    const note = $("alert-note");
    note.hidden = !(wanted && !on); // the browser said no: say so, once
    if (!note.hidden) note.textContent = t("table.alerts.denied");
  });
}

// ---------------------------------------------------------------- side: chips, calls, links, chat

function renderSide(view, obs) {
  const balances = $("balances");
  balances.replaceChildren();
  (view.balances ?? []).forEach((chips, seat) => {
    const li = el("li", seat === view.you ? "me" : "");
    li.append(el("span", "", seatName(view, seat)), el("span", "chips", formatNumber(chips)));
    balances.append(li);
  });
  const pot = el("li", "pot-line");
  pot.append(el("span", "", t("table.pot")), el("span", "chips", formatNumber(view.pot ?? 0)));
  balances.append(pot);

  const calls = obs?.calls ?? [];
  show("calls-panel", calls.length > 0 && view.status === "playing");
  const list = $("calls");
  list.replaceChildren();
  for (const call of calls) {
    const li = el("li");
    const text = t("table.calls.item", { name: seatName(view, call.seat), value: valueText(call.value) });
    li.append(el("span", "", text));
    li.append(cardRow(call.cards, obs.wild_cards ?? []));
    list.append(li);
  }

  const invite = view.invite ?? recall(`invite.${tableId}`);
  const seated = view.you !== null && view.you !== undefined;
  show("invite-box", Boolean(invite) && seated && !view.table?.lesson); // a lesson is for one
  if (invite) $("invite-link").value = new URL(invite, location.origin).href;
  show("seat-link-box", seated && Boolean(state.token));
  if (state.token) {
    $("seat-link").value = `${location.origin}/t/${encodeURIComponent(tableId)}#seat=${state.token}`;
  }
  show("links", seated);

  const chat = $("chat");
  const atBottom = chat.scrollHeight - chat.scrollTop - chat.clientHeight < 40;
  chat.replaceChildren(
    ...(view.chat ?? []).map((line) => {
      const li = el("li");
      li.append(el("strong", "", line.name ?? seatName(view, line.seat)), el("span", "chat-text", line.text));
      return li;
    }),
  );
  if (atBottom) chat.scrollTop = chat.scrollHeight;
  show("chat-form", seated);
}

function renderLog(view) {
  const log = $("log");
  const items = state.log.filter((e) => e.type !== "chat").slice(-LOG_LIMIT);
  log.replaceChildren(
    ...items.flatMap((event) => eventLines(event, view).map((line) => el("li", `ev-${event.type}`, line))),
  );
  log.scrollTop = log.scrollHeight;
}

function addEvents(events) {
  for (const event of events) {
    if (event.version <= state.lastLogVersion) continue;
    state.log.push(event);
    state.lastLogVersion = event.version;
  }
  if (state.log.length > LOG_LIMIT * 2) state.log = state.log.slice(-LOG_LIMIT);
}

async function backfillLog(since) {
  try {
    const invite = state.invite ? `&invite=${encodeURIComponent(state.invite)}` : "";
    const data = await api(`/api/tables/${encodeURIComponent(tableId)}/events?since=${since}${invite}`, {
      token: state.token,
    });
    const older = (data.events ?? []).filter((e) => !state.log.some((x) => x.version === e.version));
    state.log = [...older, ...state.log].sort((a, b) => a.version - b.version);
    state.lastLogVersion = Math.max(state.lastLogVersion, ...state.log.map((e) => e.version), 0);
    if (state.view) {
      renderLog(state.view);
      renderHeader(state.view); // the header of an ended table names why it ended
    }
  } catch {
    // The log is a convenience; the View is complete without it.
  }
}

// ---------------------------------------------------------------- deal summary

/** The part of the match the page is in: a summary opened by hand stays open within it. */
function matchMoment(view) {
  return `${view.status === "deal_over" ? "over" : view.status}-${view.deal_number ?? ""}`;
}

function maybeSummary(view) {
  const last = view.last_deal;
  if (!last) {
    $("summary").hidden = true;
    return;
  }
  // The match ends while this page watches: the summary opens with the final standings (at a
  // lesson table, when the coach's "See every hand" asks for it).
  const byItself = !view.table?.lesson;
  const ended = view.status === "closed" && state.lastStatus !== null && state.lastStatus !== "closed";
  state.lastStatus = view.status;
  if (ended) {
    state.summaryShown = last.deal;
    state.summaryHidden = !byItself;
  } else if (state.summaryShown !== last.deal) {
    // A newly finished deal: its summary opens once, by itself, while the deal is over (the
    // update of the last action comes a moment before the deal_over one). A page opened
    // later keeps it closed: the header button shows it.
    if (view.status === "deal_over") {
      state.summaryShown = last.deal;
      state.summaryHidden = !byItself;
      state.summaryPinned = null;
    } else if (view.status !== "playing" || view.deal_number > last.deal) {
      state.summaryShown = last.deal;
      state.summaryHidden = true;
    }
  }
  // The next deal follows by itself after a pause: the summary closes when it starts (the
  // cut), on a phone as on a desktop, where it would cover the table. One opened by hand
  // stays open until the match moves on again. The header button brings it back.
  const moved = view.status !== "deal_over" && view.status !== "closed";
  if (moved && state.summaryPinned !== matchMoment(view)) {
    state.summaryHidden = true;
    state.summaryPinned = null;
  }
  const open = !state.summaryHidden;
  $("summary").hidden = !open;
  const access = { token: state.token, invite: state.invite }; // a private table's proof, replay, record
  if (open) renderSummary(view, tableId, { label: dealLabel(last.deal) }, access);
}

// ---------------------------------------------------------------- wiring

function onState(view) {
  state.view = view;
  if (view.status === "playing" || view.status === "deal_over") rememberCommitment(view, false);
  render();
}

function start() {
  applyStrings();
  const params = new URLSearchParams(location.search);
  state.invite = params.get("invite");
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("seat")) {
    // A seat link: keep the token here and take it out of the address bar.
    setSeatToken(tableId, hash.get("seat"));
    history.replaceState(null, "", location.pathname + location.search);
  }
  state.token = params.get("watch") ? null : getSeatToken(tableId);
  $("join-name").value = recall("name") ?? "";

  $("hand").addEventListener("keydown", onHandKey);
  $("hand").addEventListener("focusin", (event) => {
    const buttons = [...$("hand").querySelectorAll("button[data-card]")];
    if (buttons.includes(event.target)) setHandStop(buttons, buttons.indexOf(event.target));
  });
  $("draw-stock").addEventListener("click", () => act("draw stock"));
  $("btn-draw-stock").addEventListener("click", () => act("draw stock"));
  $("draw-discard").addEventListener("click", () => act("draw discard"));
  $("btn-draw-discard").addEventListener("click", () => act("draw discard"));
  $("cut-range").addEventListener("input", (e) => setCut(e.target.value));
  $("cut-number").addEventListener("change", (e) => setCut(e.target.value));
  $("cut-random").addEventListener("click", () => setCut(secureRandomBelow(packSize(state.view))));
  $("cut-button").addEventListener("click", doCut);
  $("start-button").addEventListener("click", () => send({ type: "start" }));
  $("return-button").addEventListener("click", () => send({ type: "return" }));
  $("leave-button").addEventListener("click", leave);
  $("rematch-button").addEventListener("click", rematch);
  $("summary-rematch").addEventListener("click", rematch);
  wireAlerts();
  wireCoach((message) => send(message), { openSummary: () => $("open-summary").click() });
  $("summary-close").addEventListener("click", () => {
    state.summaryHidden = true;
    state.summaryPinned = null;
    $("summary").hidden = true;
    $("open-summary").focus();
  });
  $("open-summary").addEventListener("click", () => {
    state.summaryHidden = false;
    state.summaryPinned = state.view ? matchMoment(state.view) : null;
    render();
    $("summary-close").focus();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !$("summary").hidden) $("summary-close").click();
  });
  $("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) return;
    input.value = "";
    send({ type: "chat", text }, { lock: false });
  });
  for (const button of document.querySelectorAll("[data-copy]")) {
    button.addEventListener("click", async () => {
      const input = $(button.dataset.copy);
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
      } catch {
        document.execCommand?.("copy");
      }
      button.textContent = t("table.copied");
      setTimeout(() => (button.textContent = t("table.copy")), 1500);
    });
  }

  let first = true;
  socket.current = new TableSocket(tableId, state.token, {
    onWelcome(msg) {
      // A server whose database is still gone says so right after its welcome.
      show("service-banner", false);
      if (state.token && msg.seat === null) {
        // The server did not accept the token: watch, and say why.
        showMessage(t("error.bad_token"));
      }
      addEvents(msg.events ?? []);
      onState(msg.state);
      if (first) {
        first = false;
        backfillLog(Math.max(0, msg.version - LOG_BACKFILL));
      }
    },
    onUpdate(msg) {
      const gap = msg.event && state.lastLogVersion && msg.event.version > state.lastLogVersion + 1;
      if (gap) backfillLog(state.lastLogVersion);
      if (msg.event) addEvents([msg.event]);
      onState(msg.state);
    },
    onPresence(frame) {
      onPresence(frame);
    },
    onService(msg) {
      // The server cannot reach its database: nothing can be played until it is back.
      show("service-banner", msg.database === "unavailable");
    },
    onError(error, id) {
      if (!id) showMessage(errorText(error));
      if (error?.code === "bad_token") {
        state.token = null;
        showMessage(t("error.bad_token"));
      }
    },
    onStatus(name, pending) {
      const conn = $("conn");
      conn.dataset.state = name;
      conn.textContent = t(`conn.${name}`);
      conn.title = pending ? t("conn.pending", { count: pending }) : "";
    },
  });
  socket.current.connect();
}

start();
