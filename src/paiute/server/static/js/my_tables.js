// "My tables": the account's tables, live and finished, the newest first (GET /api/me/tables).
// From here a player resumes a table, leaves it or replays its deals, on any device: where this
// browser holds no token for the seat, the account asks for a fresh seat link to it.

import { currentAccount } from "./account.js";
import { api, errorText, getSeatToken, newId, setSeatToken } from "./api.js";
import { lessonTitle } from "./lesson.js";
import { applyStrings, formatNumber, t } from "./strings.js";
import { presetName, tableItem } from "./table_list.js";

const $ = (id) => document.getElementById(id);
const PER_PAGE = 10;
const listing = { page: 1, pages: 1 };

/**
 * A table's name as this page shows it: a lesson table's in the page's language (the name
 * stored with it is the server's English one), any other as its host named it.
 */
function tableName(table) {
  return lessonTitle({ table }) ?? table.name;
}

function showError(error) {
  const box = $("mine-error");
  box.textContent = typeof error === "string" ? error : errorText(error);
  box.hidden = false;
}

/**
 * The token of the account's seat at a table: the one this browser holds if it still holds
 * that seat, else a fresh seat link for it (kept here, as a seat link opened here would be).
 */
async function seatToken(entry) {
  const id = entry.table.id;
  const held = getSeatToken(id);
  if (held) {
    try {
      const view = await api(`/api/tables/${encodeURIComponent(id)}/state`, { token: held });
      if (view.you === entry.seat) return held;
    } catch {
      // A token that holds nothing here any more: ask for a fresh one below.
    }
  }
  const fresh = await api(`/api/me/tables/${encodeURIComponent(id)}/seat`, {
    method: "POST",
    body: { seat: entry.seat },
  });
  setSeatToken(id, fresh.token);
  return fresh.token;
}

async function open(entry, path) {
  $("mine-error").hidden = true;
  try {
    await seatToken(entry);
    location.assign(path);
  } catch (error) {
    showError(error);
  }
}

async function leave(entry) {
  $("mine-error").hidden = true;
  const id = entry.table.id;
  try {
    const token = await seatToken(entry);
    await api(`/api/tables/${encodeURIComponent(id)}/leave`, { method: "POST", token, body: { id: newId() } });
    // Before the start the seat is free again, and its token holds nothing.
    if (entry.table.status === "waiting") setSeatToken(id, null);
    $("mine-status").textContent = t("mine.left", { table: tableName(entry.table) });
    await refresh();
  } catch (error) {
    showError(error);
  }
}

function signed(number) {
  return number > 0 ? `+${formatNumber(number)}` : formatNumber(number);
}

function button(text, className, action) {
  const el = document.createElement("button");
  el.type = "button";
  el.className = className;
  el.textContent = text;
  el.addEventListener("click", action);
  return el;
}

function entryItem(entry) {
  const table = entry.table;
  const name = tableName(table);
  const id = encodeURIComponent(table.id);
  const li = tableItem(table, name, [
    t("mine.seat", { seat: entry.seat + 1 }),
    presetName(table.preset),
    table.deals ? t("lobby.list.deals", { count: table.deals }) : null,
  ]);
  const result = entry.result;
  if (result) {
    const line = document.createElement("p");
    line.className = "result";
    line.textContent = t("mine.result", {
      place: result.place,
      of: result.of,
      chips: result.chips,
      count: result.chips,
      change: signed(result.change),
    });
    li.append(line);
  }

  const actions = document.createElement("div");
  actions.className = "actions";
  const live = table.status !== "closed";
  actions.append(
    button(t(live ? "mine.resume" : "mine.open", { table: name }), "button primary", () =>
      open(entry, `/t/${id}`),
    ),
  );
  if (table.deals) {
    actions.append(button(t("mine.replay", { table: name }), "button", () => open(entry, `/t/${id}/replay`)));
  }
  if (live) actions.append(button(t("mine.leave", { table: name }), "button ghost", () => leave(entry)));
  li.append(actions);
  return li;
}

async function refresh() {
  const list = $("mine-list");
  try {
    const query = new URLSearchParams({ page: String(listing.page), per_page: String(PER_PAGE) });
    const data = await api(`/api/me/tables?${query}`);
    const entries = data.tables ?? [];
    listing.pages = Math.max(1, Math.ceil((data.total ?? entries.length) / PER_PAGE));
    if (listing.page > listing.pages) {
      listing.page = listing.pages;
      if (data.total) return refresh();
    }
    if (!entries.length) {
      const empty = document.createElement("li");
      empty.className = "empty";
      empty.textContent = t("mine.empty");
      list.replaceChildren(empty);
    } else {
      list.replaceChildren(...entries.map(entryItem));
    }
    $("mine-page").textContent = t("lobby.page", { page: listing.page, pages: listing.pages });
    $("mine-prev").disabled = listing.page <= 1;
    $("mine-next").disabled = listing.page >= listing.pages;
  } catch (error) {
    list.replaceChildren();
    showError(error.code === "bad_token" ? t("mine.login_needed") : error);
  }
  return undefined;
}

async function main() {
  applyStrings();
  document.title = t("mine.title");
  $("mine-refresh").addEventListener("click", refresh);
  $("mine-prev").addEventListener("click", () => {
    listing.page = Math.max(1, listing.page - 1);
    refresh();
  });
  $("mine-next").addEventListener("click", () => {
    listing.page = Math.min(listing.pages, listing.page + 1);
    refresh();
  });
  const account = await currentAccount();
  $("mine-account").textContent = account ? t("account.signed_in", { name: account.name }) : "";
  await refresh();
}

main();
