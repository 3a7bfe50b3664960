// The hint button of the table page: on your own move, asks the server for the best move and
// its reasons (POST /api/tables/ID/hint, paiute-hint/1) and shows them. It reads only the plain
// facts table.js puts on #app (data-you, data-turn, data-status, data-version, data-busy), so it
// needs no change there; every word comes from strings.js.

import { api, errorText, getSeatToken } from "./api.js";
import { cardRow, cardShort, valueText } from "./cards.js";
import { formatNumber, t } from "./strings.js";
import { parseAction } from "./words.js";

const app = document.getElementById("app");
const button = document.getElementById("hint-button");
const panel = document.getElementById("hint-panel");
const tableId = app?.dataset.tableId;

const state = { asking: false, version: null, shownFor: null };

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function myMove() {
  const data = app.dataset;
  return data.status === "playing" && data.you !== "" && data.turn === data.you && data.busy !== "true";
}

function percent(chance) {
  return t("hint.percent", { percent: formatNumber(Math.round(chance * 100)) });
}

/** Chips with their sign and two decimals, as the terminal's hint writes them (+0.40, −1.25). */
function chips(x) {
  if (x === null || x === undefined) return "?";
  const rounded = Math.round(x * 100) / 100;
  return (rounded >= 0 ? "+" : "−") + formatNumber(Math.abs(rounded), 2);
}

function cardsText(cards) {
  return cards.map(cardShort).join(" ");
}

function moveWords(text, hint) {
  const action = parseAction(text);
  const call = hint.calls.find((c) => c.action === text);
  const value = call ? valueText(call.value) : "";
  const card = action.card ? cardShort(action.card) : "";
  return t(`hint.action.${action.kind}`, { card, value });
}

function line(text) {
  return el("p", "hint-line", text);
}

/** The hint's panel: the move, the reasons, the table of moves (all from the JSON). */
function renderHint(hint) {
  panel.replaceChildren();
  const head = el("div", "dialog-head");
  head.append(el("h3", "", t("hint.heading")));
  head.firstChild.id = "hint-heading";
  const close = el("button", "button ghost", t("hint.close"));
  close.type = "button";
  close.addEventListener("click", () => {
    panel.hidden = true;
  });
  head.append(close);
  panel.append(head);
  panel.append(el("p", "hint-move", t("hint.move", { action: moveWords(hint.recommended, hint) })));
  panel.append(el("p", "muted", basisText(hint)));
  const noise = noiseText(hint);
  if (noise) panel.append(line(noise));
  const feed = feedText(hint);
  if (feed) panel.append(line(feed));
  const plan = hint.plan;
  if (plan) {
    if (plan.pile_completes) panel.append(line(t("hint.pile", { value: valueText(plan.pile_completes) })));
    const combination = plan.category ? t(`hint.category.${plan.category}`) : "";
    const params = { cards: cardsText(plan.keeps), combination, uses: cardsText(plan.uses) };
    if (plan.category && plan.cards_away === 1) {
      panel.append(line(t("hint.why.one", params)));
      const outs = line(t("hint.outs", { outs: formatNumber(plan.outs), unseen: formatNumber(plan.unseen) }));
      outs.append(" ", cardRow(plan.out_cards));
      panel.append(outs);
      const kinds = Object.entries(plan.by_category);
      if (kinds.length > 1) {
        const parts = kinds
          .map(([name, count]) =>
            t("hint.by_category.item", { combination: t(`hint.category.${name}`), count: formatNumber(count) }),
          )
          .join(t("hint.separator"));
        panel.append(line(t("hint.by_category", { parts })));
      }
    } else if (plan.category) {
      panel.append(line(t("hint.why.two", params)));
    } else {
      panel.append(line(t("hint.why.none", params)));
    }
    if (plan.last_turn) panel.append(line(t("hint.last_turn")));
    else if (plan.category) {
      const draws = formatNumber(Math.round(plan.draws_left * 10) / 10);
      panel.append(line(t("hint.chance", { draws, chance: percent(plan.chance) })));
    }
  }
  for (const call of hint.calls) {
    const value = valueText(call.value);
    if (call.certain) {
      panel.append(line(t("hint.call.certain", { value })));
      continue;
    }
    const names = call.still_to_play.map((seat) => seatLabel(seat)).join(t("hint.separator"));
    panel.append(
      line(
        t("hint.call", {
          value,
          chance: percent(call.chance),
          low: percent(call.low),
          high: percent(call.high),
          who: names,
        }),
      ),
    );
  }
  const table = el("table", "summary-table hint-table");
  table.append(el("caption", "", t("hint.table.caption", { level: percent(0.95) })));
  const headRow = el("tr");
  const feeds = hint.actions.some((row) => row.feed !== null && row.feed !== undefined);
  const columns = ["hint.table.move", "hint.table.chips", "hint.table.interval"];
  if (feeds) columns.push("hint.table.feed");
  for (const key of columns) {
    const th = el("th", "", t(key, { level: percent(0.95) }));
    th.scope = "col";
    headRow.append(th);
  }
  const thead = el("thead");
  thead.append(headRow);
  table.append(thead);
  const body = el("tbody");
  const rows = [...hint.actions].sort((a, b) => b.mean - a.mean);
  for (const row of rows) {
    const tr = el("tr");
    const best = row.action === hint.recommended;
    if (best) tr.className = "winner";
    const move = el("th", "", moveWords(row.action, hint));
    move.scope = "row";
    if (best) move.append(" ", el("span", "tag", t("hint.table.best")));
    tr.append(move);
    tr.append(el("td", row.mean >= 0 ? "plus" : "minus", chips(row.mean)));
    tr.append(el("td", "", t("hint.table.interval.value", { low: chips(row.low), high: chips(row.high) })));
    if (feeds) tr.append(el("td", "", row.feed === null || row.feed === undefined ? "" : percent(row.feed)));
    tr.dataset.action = row.action;
    body.append(tr);
  }
  table.append(body);
  panel.append(table);
  panel.hidden = false;
}

/** Why this move: the expert's, the strongest bot's; the playouts explain it. */
function basisText(hint) {
  if (hint.actions.length === 1) return t("hint.basis.only");
  // The plural follows the playouts (a hint cut short by its time budget may have one).
  return t("hint.basis.expert", { count: hint.playouts, moves: hint.actions.length });
}

/** A move the playouts rate above the expert's, and why the hint keeps the expert's: beyond
 * their noise (the server's `beyond_noise`, paiute.analysis.hint.Hint.beyond_noise), such moves lost
 * chips in play; within it, they cannot tell. Empty when the expert's move has the most chips
 * shown. */
function noiseText(hint) {
  const recommended = hint.actions.find((row) => row.action === hint.recommended);
  const beyond = hint.actions.find((row) => row.action === hint.beyond_noise) ?? null;
  const top = beyond ?? hint.actions.reduce((a, b) => (b.mean > a.mean ? b : a));
  if (!beyond && !(top.mean > recommended.mean)) return "";
  const versus = top.versus_expert;
  return t(beyond ? "hint.beyond" : "hint.noise", {
    action: moveWords(top.action, hint),
    chips: chips(versus.mean),
    low: chips(versus.low),
    high: chips(versus.high),
  });
}

/** The riskiest discard in words, where its feed chance is worth saying (as the terminal's). */
const FEED_WORTH_SAYING = 0.1;

function feedText(hint) {
  if (hint.feed_seat === null || hint.feed_seat === undefined) return "";
  const risky = hint.actions
    .filter((row) => row.feed !== null && row.feed !== undefined)
    .reduce((a, b) => (a === null || b.feed > a.feed ? b : a), null);
  if (!risky || risky.feed < FEED_WORTH_SAYING) return "";
  const card = cardShort(parseAction(risky.action).card);
  const params = { card, name: seatLabel(hint.feed_seat), chance: percent(risky.feed) };
  return t(risky.action === hint.recommended ? "hint.feed.risk" : "hint.feed.avoid", params);
}

/** A seat's name as the seats list shows it (the page already has it), else "Seat N". */
function seatLabel(seat) {
  const name = document.querySelector(`#seats li[data-seat="${seat}"] .seat-name`)?.textContent;
  return name || t("table.seat", { seat: seat + 1 });
}

async function ask() {
  if (state.asking || !myMove()) return;
  state.asking = true;
  const version = app.dataset.version;
  button.disabled = true;
  panel.replaceChildren(el("p", "muted", t("hint.thinking")));
  panel.hidden = false;
  try {
    const hint = await api(`/api/tables/${encodeURIComponent(tableId)}/hint`, {
      method: "POST",
      token: getSeatToken(tableId),
    });
    if (String(hint.version) !== app.dataset.version || !myMove()) {
      panel.replaceChildren(el("p", "muted", t("hint.stale")));
    } else {
      state.shownFor = version;
      renderHint(hint);
    }
  } catch (error) {
    panel.replaceChildren(el("p", "error", errorText(error)));
  } finally {
    state.asking = false;
    update();
  }
}

/** Show the button on this seat's move only; an old hint goes when the table moves on. */
function update() {
  const mine = myMove();
  button.hidden = !mine;
  button.disabled = state.asking;
  const version = app.dataset.version;
  if (version !== state.version) {
    state.version = version;
    if (!state.asking && state.shownFor !== version) panel.hidden = true;
  }
}

if (app && button && panel) {
  button.addEventListener("click", ask);
  new MutationObserver(update).observe(app, {
    attributes: true,
    attributeFilter: ["data-version", "data-turn", "data-you", "data-status", "data-busy"],
  });
  update();
}
