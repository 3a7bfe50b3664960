// Game facts in words, built only from what the View shows (R9): events, last actions, prompts.
// Every sentence comes from a template of strings.js with named placeholders.

import { cardShort, valueText } from "./cards.js";
import { t } from "./strings.js";

/** {kind, card} of an action text: "draw stock", "draw discard", "discard 7h", "call 7h", "call". */
export function parseAction(text) {
  const [verb, what] = text.split(" ");
  if (verb === "draw") return { kind: what === "discard" ? "draw_discard" : "draw_stock", card: null };
  if (verb === "discard") return { kind: "discard", card: what };
  return { kind: what ? "call" : "call_six", card: what ?? null };
}

/** An action in words, without its actor ("discards 7♥"); `drawn` names a draw's card. */
export function actionWords(text, drawn = null) {
  const action = parseAction(text);
  if (drawn && action.kind.startsWith("draw")) {
    return t(`action.${action.kind}.card`, { card: cardShort(drawn) });
  }
  return t(`action.${action.kind}`, { card: action.card ? cardShort(action.card) : "" });
}

/** The name of a seat, or "Seat 3" when it has none (people count seats from 1, the API from 0). */
export function seatName(view, seat) {
  if (seat === null || seat === undefined) return t("table.chat.spectator");
  return view?.names?.[seat] ?? view?.table?.players?.[seat]?.name ?? t("table.seat", { seat: seat + 1 });
}

/** A bot's level (or kind) as people say it: "medium", in the page's language; another spec as it is. */
export function botName(spec) {
  for (const key of [`lobby.level.${spec}`, `bot.${spec}`]) {
    if (t(key) !== key) return t(key);
  }
  return spec;
}

/** A call's value text: from the observation's calls when known, else the server's text. */
function callValue(view, seat) {
  const call = view?.observation?.calls?.find((c) => c.seat === seat);
  return call ? valueText(call.value) : null;
}

/**
 * One event of the log in words: a list of lines (a draw that rebuilt the stock says so
 * first). Every type of the web contract has its template; an unknown one shows the
 * server's own text.
 */
export function eventLines(event, view) {
  const name = seatName(view, event.seat);
  const named = (seat) => seatName(view, seat);
  switch (event.type) {
    case "joined":
      return [t("event.joined", { name: event.name ?? name, seat: event.seat + 1 })];
    case "left":
      return [t("event.left", { seat: event.seat + 1 })];
    case "started":
      return [t("event.started")];
    case "commitment":
      return [
        t("event.commitment", {
          dealer: named(event.dealer),
          cutter: named(event.cutter),
          hash: (event.sha256 ?? "").slice(0, 12),
        }),
      ];
    case "cut":
      return [t(event.by === "player" ? "event.cut" : "event.cut.for", { name, position: event.position })];
    case "deal":
      if (!event.upcard) return [t("event.deal", { name })];
      return [t("event.deal.upcard", { name, card: cardShort(event.upcard) })];
    case "deal_over": {
      if (event.dead) return [t("event.deal_over.dead")];
      const names = (event.winners ?? []).map(named).join(t("summary.names_separator"));
      return [t("event.deal_over", { names, count: (event.winners ?? []).length })];
    }
    case "timeout":
      return [t("event.timeout", { name })];
    case "autoplay":
      return [t(`event.autoplay.${event.reason}`, { name })];
    case "returned":
      return [t("event.returned", { name })];
    case "relinked": // a fresh seat link for the seat's own account: nothing for the table's log
    case "lesson": // a lesson table's coach went on (its panel says it): nothing for the log
      return [];
    case "hint":
      return [t("event.hint", { name })];
    case "rematch":
      return [t("event.rematch")];
    case "closed":
      // Nobody played for the server's limit (an abandoned table): said in the reader's language.
      if (event.idle_minutes) return [t("event.closed.idle", { count: event.idle_minutes })];
      // Why, from the machine fields (the server's `reason` is English): else its text as it is.
      if (event.cause === "deals") return [t("event.closed.deals", { count: event.deals })];
      if (event.cause === "left") return [t("event.closed.left")];
      if (event.cause === "stake") {
        const names = (event.seats ?? []).map(named).join(t("summary.names_separator"));
        return [t("event.closed.stake", { names, count: (event.seats ?? []).length })];
      }
      return [t("event.closed", { reason: event.reason ?? "" })];
    case "action": {
      const lines = [];
      if (event.rebuilt) lines.push(t("event.rebuilt", { count: event.rebuilt }));
      const line = actionLine(event, view, name);
      lines.push(event.by === "clock" ? t("event.by_clock", { line }) : line);
      return lines;
    }
    default:
      return event.text ? [event.text] : [];
  }
}

function actionLine(event, view, name) {
  const action = parseAction(event.action);
  const card = event.card ? cardShort(event.card) : null;
  switch (action.kind) {
    case "draw_stock":
      return card ? t("event.draw_stock.card", { name, card }) : t("event.draw_stock", { name });
    case "draw_discard":
      return t("event.draw_discard", { name, card });
    case "discard":
      return t("event.discard", { name, card: cardShort(action.card) });
    default: {
      const value = event.call ? valueText(event.call.value) : callValue(view, event.seat);
      if (!value) return event.text ?? "";
      return action.card
        ? t("event.call.put", { name, value, card: cardShort(action.card) })
        : t("event.call", { name, value });
    }
  }
}

/** Each seat's latest turn of the deal, briefly ("took K♥, discarded 2♠"), from the history. */
export function lastActions(obs) {
  const turns = new Map();
  const calls = new Map((obs.calls ?? []).map((c) => [c.seat, c]));
  for (const event of obs.history ?? []) {
    const action = parseAction(event.action);
    const card = event.card ? cardShort(event.card) : null;
    if (action.kind === "draw_stock") {
      turns.set(event.seat, { draw: "stock", card });
    } else if (action.kind === "draw_discard") {
      turns.set(event.seat, { draw: "discard", card });
    } else if (action.kind === "discard") {
      const turn = turns.get(event.seat) ?? {};
      turns.set(event.seat, { ...turn, discarded: cardShort(action.card) });
    } else {
      turns.set(event.seat, { called: calls.get(event.seat) });
    }
  }
  const words = new Map();
  for (const [seat, turn] of turns) {
    let text;
    if (turn.called) text = t("last.called", { value: valueText(turn.called.value) });
    else if (turn.discarded && turn.draw === "discard") {
      text = t("last.took_discarded", { taken: turn.card, card: turn.discarded });
    } else if (turn.discarded && turn.card) {
      text = t("last.drew_card_discarded", { drawn: turn.card, card: turn.discarded });
    } else if (turn.discarded) text = t("last.drew_discarded", { card: turn.discarded });
    else if (turn.draw === "discard") text = t("last.took", { card: turn.card });
    else if (turn.card) text = t("last.drew", { card: turn.card });
    else text = t("last.draw_stock");
    words.set(seat, text);
  }
  return words;
}

/** The card this seat drew this turn, while it holds six (R4.2); null otherwise. */
export function drawnCard(obs) {
  if (obs.phase !== "discard" || obs.seat === null || obs.current_seat !== obs.seat) return null;
  for (let i = (obs.history ?? []).length - 1; i >= 0; i -= 1) {
    const event = obs.history[i];
    if (event.seat === obs.seat && event.action.startsWith("draw")) return event.card ?? null;
  }
  return null;
}
