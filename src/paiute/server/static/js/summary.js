// The end of a deal: calls, winners, payouts and balances (R8), every hand revealed (R9.3),
// and the fair-deal proof (R10.2) checked in this browser (verify.js).

import { api, downloadWithToken, recall, withInvite } from "./api.js";
import { cardRow, cardShort, sortCards, valueText } from "./cards.js";
import { formatNumber, t } from "./strings.js";
import { canVerify, verifyProof } from "./verify.js";
import { seatName } from "./words.js";

const $ = (id) => document.getElementById(id);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function signed(delta) {
  return delta > 0 ? `+${formatNumber(delta)}` : formatNumber(delta);
}

/**
 * Fill the summary dialog for `view.last_deal`; starts the proof check. `access` is how this
 * page reads the table ({token, invite}): a private table's proof, replay and record need the
 * seat's token or the invitation, as its state does.
 */
export function renderSummary(view, tableId, deal, access = {}) {
  renderStandings(view);
  const last = view.last_deal;
  // The wild cards of the finished deal (R3), from the deal itself: the view's observation is
  // already the next deal's once it starts, so a reopened summary keeps its marks.
  const wild = last.wild_cards ?? (view.status === "deal_over" ? (view.observation?.wild_cards ?? []) : []);
  const names = (seats) => seats.map((s) => seatName(view, s)).join(t("summary.names_separator"));
  $("summary-heading").textContent = t("summary.heading", { deal: deal.label });
  let result;
  if (last.dead) result = t("summary.dead");
  else if (!last.winners.length) result = t("summary.nobody");
  else if (last.winners.length === 1) result = t("summary.winner", { names: names(last.winners) });
  else result = t("summary.winners", { names: names(last.winners) });
  $("summary-result").textContent = result;
  $("summary-pot").textContent = t("summary.pot", { pot: last.pot ?? 0, count: last.pot ?? 0 });

  const calls = $("summary-calls");
  calls.replaceChildren();
  for (const call of last.calls ?? []) {
    const li = el("li", last.winners.includes(call.seat) ? "winner" : "");
    const value = valueText(call.value) || call.text;
    li.append(el("span", "call-text", t("summary.call", { name: seatName(view, call.seat), value })));
    if (call.first_turn) li.append(el("span", "pill", t("summary.first_turn")));
    li.append(cardRow(call.shown ?? call.cards ?? [], wild));
    calls.append(li);
  }

  const table = $("summary-table");
  table.replaceChildren();
  const head = el("tr");
  for (const key of ["summary.seat", "summary.hand", "summary.payout", "summary.balance"]) {
    const th = el("th", "", t(key));
    th.scope = "col";
    head.append(th);
  }
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  const seats = last.hands?.length ?? last.payouts?.length ?? 0;
  for (let seat = 0; seat < seats; seat += 1) {
    const tr = el("tr", last.winners.includes(seat) ? "winner" : "");
    const th = el("th", "", seatName(view, seat));
    th.scope = "row";
    const hand = el("td");
    const called = (last.calls ?? []).some((call) => call.seat === seat);
    const cards = last.hands?.[seat] ?? [];
    hand.append(cardRow(called ? cards : sortCards(cards), wild)); // a call keeps its shown order
    const delta = last.payouts?.[seat] ?? 0;
    const payout = el("td", delta > 0 ? "plus" : delta < 0 ? "minus" : "", signed(delta));
    const balance = el("td", "", last.balances?.[seat] == null ? "" : formatNumber(last.balances[seat]));
    tr.append(th, hand, payout, balance);
    tbody.append(tr);
  }
  table.append(thead, tbody);

  const replay = $("summary-replay");
  replay.href = withInvite(last.replay_url, access.invite); // the replay page finds the token itself
  const record = $("summary-record");
  record.href = withInvite(last.record_url, access.invite);
  // With a seat token (a seat link opened here has no seat cookie) the record is fetched with
  // it; the plain link stays for the invitation, the cookie and public tables.
  record.onclick = access.token
    ? (event) => {
        event.preventDefault();
        downloadWithToken(record.href, access.token, `paiute-${tableId}.json`).catch(() => {
          // Refused with the token (one this table no longer knows): what the link alone gets.
          const plain = el("a");
          plain.href = record.href;
          plain.download = "";
          document.body.append(plain);
          plain.click();
          plain.remove();
        });
      }
    : null;
  checkProof(view, tableId, last, access);
}

/**
 * Once the match is over: every seat's place, name and chips, the most chips first; seats
 * with as many chips share a place (1, 1, 3), as "My tables" counts them.
 */
function renderStandings(view) {
  const box = $("standings");
  const balances = view.balances ?? [];
  box.hidden = view.status !== "closed" || !balances.length;
  if (box.hidden) return;
  const head = el("tr");
  for (const key of ["summary.place", "summary.seat", "summary.balance"]) {
    const th = el("th", "", t(key));
    th.scope = "col";
    head.append(th);
  }
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  const order = balances.map((chips, seat) => ({ chips, seat })).sort((a, b) => b.chips - a.chips || a.seat - b.seat);
  for (const { chips, seat } of order) {
    const place = 1 + balances.filter((other) => other > chips).length;
    const tr = el("tr", place === 1 ? "winner" : "");
    tr.dataset.seat = String(seat);
    const name = el("th", "", seatName(view, seat));
    name.scope = "row";
    tr.append(el("td", "place", formatNumber(place)), name, el("td", "", formatNumber(chips)));
    tbody.append(tr);
  }
  $("standings-table").replaceChildren(thead, tbody);
}

const checked = new Map(); // deal number -> result, so the proof is checked once per page

async function checkProof(view, tableId, last, access) {
  const status = $("proof-status");
  const list = $("proof-checks");
  const data = $("proof-data");
  if (!canVerify()) {
    status.textContent = t("proof.no_crypto");
    status.dataset.result = "unavailable";
    list.replaceChildren();
    return;
  }
  let result = checked.get(last.deal);
  if (!result) {
    status.textContent = t("proof.checking");
    status.dataset.result = "checking";
    list.replaceChildren();
    try {
      const proof = await api(withInvite(last.proof_url, access.invite), { token: access.token });
      const seen = recall(`commit.${tableId}.${last.deal}`);
      let dealt = null;
      try {
        const path = `/api/tables/${encodeURIComponent(tableId)}/deals/${last.deal}/replay`;
        const replay = await api(withInvite(path, access.invite), { token: access.token });
        const first = replay.steps?.[0]?.state;
        if (first?.hands) dealt = { dealer: first.dealer, hands: first.hands };
      } catch {
        dealt = null; // the dealing check is extra; the hash and cut checks stand alone
      }
      const checks = await verifyProof(proof, { seen, dealt });
      result = { proof, ...checks };
      checked.set(last.deal, result);
    } catch (error) {
      status.textContent = t("proof.unavailable", { message: error.message });
      status.dataset.result = "failed";
      return;
    }
  }
  status.textContent = result.ok ? t("proof.verified") : t("proof.failed");
  status.dataset.result = result.ok ? "verified" : "failed";
  status.className = `proof-status ${result.ok ? "ok" : "bad"}`;
  list.replaceChildren(
    ...result.checks.map((check) => {
      const card = check.params.card;
      const params = card ? { ...check.params, card: cardShort(card) } : check.params;
      const li = el("li", check.note ? "note" : check.ok ? "ok" : "bad", t(check.key, params));
      return li;
    }),
  );
  const proof = result.proof;
  data.replaceChildren();
  const entry = (label, value, code = true) => {
    data.append(el("dt", "", label));
    const dd = el("dd");
    if (code) dd.append(el("code", "hash", value));
    else dd.append(value);
    data.append(dd);
  };
  entry(t("proof.hash"), proof.sha256);
  entry(t("proof.salt"), proof.salt);
  entry(t("proof.cut"), formatNumber(proof.cut));
  entry(t("proof.order"), proof.shuffled.join(" "));
  entry(t("proof.deck"), proof.deck.join(" "));
  (proof.rebuilds ?? []).forEach((rebuild, i) => {
    const text = [rebuild.sha256, rebuild.salt, rebuild.order.join(" ")].join("\n");
    entry(t("proof.rebuild", { number: i + 1 }), text);
  });
}
