// The hint button of the table page: on your own move, asks the server for the best move and
// its reasons (POST /api/tables/ID/hint, paiute-hint/2) and shows them. It reads only the plain
// facts table.js puts on #app (data-you, data-turn, data-status, data-version, data-busy, and
// data-hints, data-hints-reason: the View's hints), so it needs no change there; every word
// comes from strings.js. Where hints are off for the seat (a table of people whose creator did
// not allow them) the button is disabled and its title says why; where the table sees who
// asks, its title says that.

import { api, errorText, getSeatToken } from "./api.js";
import { cardRow, cardShort, valueText } from "./cards.js";
import { formatChips, formatNumber, t } from "./strings.js";
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

/** Chips as the terminal's hint writes them (strings.js formatChips: +0.40, -1.25). */
const chips = formatChips;

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
  table.append(el("caption", "", t("hint.table.net", { level: percent(0.95) })));
  const headRow = el("tr");
  const feeds = hint.actions.some((row) => row.feed !== null && row.feed !== undefined);
  const columns = ["hint.table.move", "hint.table.chips", "hint.table.interval"];
  if (feeds) columns.push("hint.table.feed_chance");
  for (const key of columns) {
    const th = el("th", "", t(key, { level: percent(0.95) }));
    th.scope = "col";
    headRow.append(th);
  }
  const thead = el("thead");
  thead.append(headRow);
  table.append(thead);
  const body = el("tbody");
  // The recommended move heads the table; the others follow by their net chips.
  const recommended = hint.actions.filter((row) => row.action === hint.recommended);
  const others = hint.actions.filter((row) => row.action !== hint.recommended).sort((a, b) => b.net - a.net);
  for (const row of [...recommended, ...others]) {
    const tr = el("tr");
    const best = row.action === hint.recommended;
    if (best) tr.className = "winner";
    const move = el("th", "", moveWords(row.action, hint));
    move.scope = "row";
    if (best) move.append(" ", el("span", "tag", t("hint.table.best")));
    tr.append(move);
    tr.append(el("td", `figure ${row.net >= 0 ? "plus" : "minus"}`, chips(row.net)));
    const interval = t("hint.table.interval.value", { low: chips(row.low), high: chips(row.high) });
    tr.append(el("td", "figure", interval));
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

/** One sentence where the playouts rate another move above the recommended one, and why the
 * hint keeps the expert's (as the terminal's, paiute.analysis.hint.Hint.top): beyond their noise
 * (the server's `beyond_noise`) such moves lost chips in play; within it, they cannot tell.
 * Empty when the recommended move has the most chips shown. */
function noiseText(hint) {
  const recommended = hint.actions.find((row) => row.action === hint.recommended);
  const beyond = hint.actions.find((row) => row.action === hint.beyond_noise) ?? null;
  const top = beyond ?? hint.actions.reduce((a, b) => (b.net > a.net ? b : a));
  if (!beyond && !(top.net > recommended.net)) return "";
  const versus = top.versus_expert;
  return t(beyond ? "hint.beyond_noise" : "hint.within_noise", {
    action: moveWords(top.action, hint),
    chips: chips(versus.mean),
    low: chips(versus.low),
    high: chips(versus.high),
    hint: moveWords(hint.recommended, hint),
    count: hint.playouts,
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

function hintsOff() {
  return app.dataset.hints === "off";
}

/** Why hints are off, by the View's hints.reason (another reason: the general words). */
const OFF_TITLES = { people: "hint.off.people", rated: "hint.off.rated" };

/** The button's title: why hints are off, or that the table sees who asks (else none). */
function buttonTitle() {
  const reason = app.dataset.hintsReason;
  if (hintsOff()) return t(OFF_TITLES[reason] ?? "hint.off");
  return reason === "allowed" ? t("hint.announced") : "";
}

async function ask() {
  if (state.asking || !myMove() || hintsOff()) return;
  state.asking = true;
  button.disabled = true;
  panel.replaceChildren(el("p", "muted", t("hint.thinking")));
  panel.hidden = false;
  try {
    const hint = await api(`/api/tables/${encodeURIComponent(tableId)}/hint`, {
      method: "POST",
      token: getSeatToken(tableId),
    });
    // The answer's version may be ahead of the page's (the update telling the table of the
    // ask may not be in yet); behind it, the table has moved on.
    if (Number(hint.version) < Number(app.dataset.version) || !myMove()) {
      panel.replaceChildren(el("p", "muted", t("hint.stale")));
    } else {
      state.shownFor = String(hint.version);
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
  button.disabled = state.asking || hintsOff();
  button.title = buttonTitle();
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
    attributeFilter: [
      "data-version",
      "data-turn",
      "data-you",
      "data-status",
      "data-busy",
      "data-hints",
      "data-hints-reason",
    ],
  });
  update();
}
