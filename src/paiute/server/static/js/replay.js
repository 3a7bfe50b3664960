// The replay page: step through a finished deal, every hand and the stock revealed (R9.3).

import { api, errorText, getSeatToken, withInvite } from "./api.js";
import { cardElement, cardRow, sortCards, valueText } from "./cards.js";
import { applyStrings, formatNumber, t } from "./strings.js";
import { actionWords } from "./words.js";
import { followReview, renderChart, renderStep, renderSummary } from "./review.js";

const $ = (id) => document.getElementById(id);
const tableId = $("app").dataset.tableId;

const state = { tableName: tableId, deal: 0, replay: null, step: 0, review: null, stopReview: null };
// How this page reads the table, as the table page does: the seat's token kept in this browser
// (a seat link opened here has no seat cookie) and the invitation code of the address.
const access = {
  token: getSeatToken(tableId),
  invite: new URLSearchParams(location.search).get("invite"),
};

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function showError(text) {
  $("replay-error").textContent = text;
  $("replay-error").hidden = !text;
}

function name(seat) {
  return state.replay?.players?.[seat] ?? t("table.seat", { seat: seat + 1 }); // seats are shown from 1
}

function render() {
  const replay = state.replay;
  const dealLabel = state.deal; // deals are counted from 1
  document.title = t("replay.title", { deal: dealLabel });
  $("replay-heading").textContent = t("replay.heading", { table: state.tableName, deal: dealLabel });
  if (!replay) return;
  const steps = replay.steps.length;
  const step = replay.steps[state.step];
  $("replay-step").textContent = t("replay.step", { step: state.step, steps: steps - 1 });
  const range = $("step-range");
  range.max = String(steps - 1);
  range.value = String(state.step);
  $("first").disabled = $("prev").disabled = state.step === 0;
  $("next").disabled = $("last").disabled = state.step === steps - 1;
  // The card a draw took: the one the seat holds now and did not a step before.
  const before = state.step > 0 ? replay.steps[state.step - 1].state.hands?.[step.seat] ?? [] : [];
  const drawn =
    step.action?.startsWith("draw") && step.seat !== null
      ? ((step.state.hands?.[step.seat] ?? []).find((card) => !before.includes(card)) ?? null)
      : null;
  $("replay-action").textContent =
    step.action === null
      ? t("replay.start")
      : t("replay.action", { name: name(step.seat), action: actionWords(step.action, drawn) });

  renderStep($("review-step"), state.review, state.step, name); // review.js: marks, chart
  renderChart($("review-chart"), state.review, steps, state.step, name);

  const s = step.state;
  const wild = s.wild_cards ?? [];
  const upcard = s.upcard ? [cardElement(s.upcard, { wild: wild.includes(s.upcard) })] : [];
  $("r-upcard").replaceChildren(...upcard);
  const wildNote = $("r-wild");
  wildNote.replaceChildren();
  if (!s.upcard) wildNote.append(el("span", "", t("table.upcard.none")));
  wildNote.append(cardRow(wild, wild));
  const pile = s.discard_pile ?? [];
  const top = pile.length ? pile[pile.length - 1] : null;
  $("r-discard").replaceChildren(
    top ? cardElement(top, { wild: wild.includes(top) }) : el("span", "empty-pile", t("table.discard.empty")),
  );
  $("r-discard-count").replaceChildren(cardRow(pile, wild));
  $("r-pot").textContent = t("table.pot.value", { pot: s.pot, count: s.pot });
  $("r-stock").replaceChildren(cardRow(s.stock ?? [], wild));

  const seats = $("r-seats");
  seats.replaceChildren();
  const calls = new Map((s.calls ?? []).map((c) => [c.seat, c]));
  const winners = s.outcome?.winners ?? [];
  (s.hands ?? []).forEach((hand, seat) => {
    const li = el("li", "seat");
    if (s.phase !== "over" && s.current_seat === seat) li.classList.add("turn");
    if (winners.includes(seat)) li.classList.add("winner");
    if (step.seat === seat) li.classList.add("acted");
    const head = el("div", "seat-head");
    head.append(el("span", "seat-name", name(seat)));
    const tags = el("span", "tags");
    if (s.dealer === seat) tags.append(el("span", "tag dealer", t("table.seat.dealer")));
    if (s.phase !== "over" && s.current_seat === seat) {
      tags.append(el("span", "tag turn", t("table.seat.turn")));
    }
    head.append(tags);
    li.append(head);
    const facts = el("div", "seat-facts");
    const chips = s.balances?.[seat] ?? 0;
    facts.append(el("span", "chips", t("table.seat.chips", { chips, count: chips })));
    li.append(facts);
    const row = el("span", "card-row");
    for (const card of sortCards(hand)) {
      const fresh = seat === step.seat && card === drawn;
      row.append(cardElement(card, { small: true, wild: wild.includes(card), drawn: fresh }));
    }
    li.append(row);
    const call = calls.get(seat);
    if (call) {
      const line = el("div", "seat-call");
      line.append(
        el("span", "", t("table.seat.called", { value: valueText(call.value) })),
        cardRow(call.cards, wild),
      );
      li.append(line);
    }
    seats.append(li);
  });
}

function go(step) {
  if (!state.replay) return;
  state.step = Math.max(0, Math.min(state.replay.steps.length - 1, step));
  render();
}

async function load(deal) {
  state.deal = deal;
  state.replay = null;
  showError("");
  const url = new URL(location.href);
  url.searchParams.set("deal", String(deal));
  history.replaceState(null, "", url);
  try {
    const path = `/api/tables/${encodeURIComponent(tableId)}/deals/${deal}/replay`;
    state.replay = await api(withInvite(path, access.invite), { token: access.token });
    state.step = 0;
  } catch (error) {
    const key = error.code === "forbidden" ? "replay.forbidden" : "replay.not_ready";
    showError(t(key, { message: errorText(error) }));
  }
  render();
  followDealReview(deal);
}

function followDealReview(deal) {
  state.stopReview?.();
  state.review = null;
  renderSummary($("review-summary"), null, name, go);
  if (!state.replay) return;
  state.stopReview = followReview(tableId, deal, access, (review, status) => {
    $("review-status").textContent = status ?? "";
    if (!review) return;
    state.review = review;
    renderSummary($("review-summary"), review, name, go);
    render();
  });
}

/** The table as this page may see it; a token the table no longer knows reads it as a spectator. */
async function tableState() {
  const path = withInvite(`/api/tables/${encodeURIComponent(tableId)}/state`, access.invite);
  try {
    return await api(path, { token: access.token });
  } catch (error) {
    if (error.code !== "bad_token" || !access.token) throw error;
    access.token = null;
    return api(path);
  }
}

async function main() {
  applyStrings();
  const params = new URLSearchParams(location.search);
  const deal = Number(params.get("deal") ?? 1) || 1;
  try {
    const view = await tableState();
    state.tableName = view.table?.name ?? tableId;
    const finished = view.last_deal ? view.last_deal.deal : (view.table?.deals ?? 0);
    const select = $("deal-select");
    for (let n = 1; n <= Math.max(finished, deal); n += 1) {
      const option = el("option", "", formatNumber(n));
      option.value = String(n);
      option.selected = n === deal;
      select.append(option);
    }
  } catch (error) {
    showError(errorText(error));
  }
  $("deal-select").addEventListener("change", (e) => load(Number(e.target.value)));
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(state.step - 1));
  $("next").addEventListener("click", () => go(state.step + 1));
  $("last").addEventListener("click", () => go(Infinity));
  $("step-range").addEventListener("input", (e) => go(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 };
    if (e.key in moves) go(state.step + moves[e.key]);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(Infinity);
    else return;
    e.preventDefault();
  });
  await load(deal);
}

main();
