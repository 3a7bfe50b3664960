// The lobby page: create a table, list the open tables, join a seat or watch.

import { initAccountBar } from "./account.js";
import { api, errorText, getSeatToken, recall, remember, setSeatToken } from "./api.js";
import { startLesson } from "./learn.js";
import { applyStrings, formatNumber, t } from "./strings.js";
import { presetName, tableItem } from "./table_list.js";

const MIN_SEATS = 2;
const MAX_SEATS = 8; // R2.1: max_players is at most 8
const DEFAULT_SEATS = 4;
const REFRESH_MS = 5000;
const PER_PAGE = 10;
// Options with their own field in the form (the table's stake) or set from the seats (R2.1).
const OWN_FIELDS = new Set(["stake"]);

const $ = (id) => document.getElementById(id);
let presets = {};
let options = [];

function option(value, text, selected = false) {
  const el = document.createElement("option");
  el.value = value;
  el.textContent = text;
  el.selected = selected;
  return el;
}

function levelName(name) {
  const key = `lobby.level.${name}`;
  return t(key) === key ? name : t(key);
}

/** A rule option's name for people ("option.max_players"); an option without one, its own name. */
function optionLabel(name) {
  const key = `option.${name}`;
  return t(key) === key ? name : t(key);
}

/** One of a choice option's values for people ("option.payout.scale"), else the value itself. */
function choiceLabel(name, value) {
  const key = `option.${name}.${value}`;
  return t(key) === key ? String(value) : t(key);
}

function buildForm(data) {
  presets = data.presets ?? {};
  options = data.options ?? [];
  const preset = $("preset");
  preset.replaceChildren(...Object.keys(presets).map((name) => option(name, presetName(name), name === "pagat")));
  const seats = $("seats");
  for (let n = MIN_SEATS; n <= MAX_SEATS; n += 1) seats.append(option(n, formatNumber(n), n === DEFAULT_SEATS));
  // Levels, not bot internals (paiute.players.LEVELS), medium first chosen.
  const levels = data.levels ?? [];
  const level = data.default_level ?? "medium";
  const bots = $("bots");
  bots.replaceChildren(option("", t("lobby.create.bots.none")));
  for (const name of levels) bots.append(option(name, levelName(name), name === level));
  $("play-level").replaceChildren(...levels.map((name) => option(name, levelName(name), name === level)));
  const filterPreset = $("filter-preset");
  filterPreset.replaceChildren(option("", t("lobby.filter.preset.any")));
  for (const name of Object.keys(presets)) filterPreset.append(option(name, presetName(name)));

  const grid = $("options");
  grid.replaceChildren();
  for (const opt of options) {
    if (OWN_FIELDS.has(opt.name)) continue;
    const field = document.createElement("div");
    field.className = "field";
    const id = `opt-${opt.name}`;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = optionLabel(opt.name);
    let input;
    if (opt.type === "int") {
      input = document.createElement("input");
      input.type = "number";
      input.step = "1";
      input.inputMode = "numeric";
      input.placeholder = String(opt.default);
      if (opt.minimum !== null && opt.minimum !== undefined) input.min = String(opt.minimum);
      if (opt.maximum !== null && opt.maximum !== undefined) input.max = String(opt.maximum);
    } else {
      input = document.createElement("select");
      input.append(option("", t("lobby.create.option.default")));
      if (opt.type === "bool") {
        input.append(
          option("true", t("lobby.create.option.on")),
          option("false", t("lobby.create.option.off")),
        );
      } else {
        for (const choice of opt.choices ?? []) input.append(option(choice, choiceLabel(opt.name, choice)));
      }
    }
    input.id = id;
    input.dataset.option = opt.name;
    input.dataset.type = opt.type;
    const help = document.createElement("small");
    help.id = `${id}-help`;
    help.textContent = opt.help ?? "";
    input.setAttribute("aria-describedby", help.id);
    field.append(label, input, help);
    grid.append(field);
  }
  showPresetValues();
}

/** Show each option's value under the chosen preset (what "preset" stands for). */
function showPresetValues() {
  const values = presets[$("preset").value] ?? {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const value = values[input.dataset.option];
    if (value === undefined) continue;
    // A number stays as typed into the field (ASCII digits); a choice is said in words.
    let shown = input.dataset.type === "int" ? String(value) : choiceLabel(input.dataset.option, value);
    if (input.dataset.type === "bool") {
      shown = t(value ? "lobby.create.option.on" : "lobby.create.option.off");
    }
    if (input.tagName === "SELECT") {
      input.options[0].textContent = t("lobby.create.option.default", { value: shown });
    } else {
      input.placeholder = shown;
    }
  }
}

function chosenOptions() {
  const chosen = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    if (input.value === "") continue;
    const type = input.dataset.type;
    chosen[input.dataset.option] =
      type === "bool" ? input.value === "true" : type === "int" ? Number(input.value) : input.value;
  }
  // R2.1: more than five seats needs max_players raised; do it rather than refuse.
  const seats = Number($("seats").value);
  const presetMax = presets[$("preset").value]?.max_players ?? 5;
  if (seats > (chosen.max_players ?? presetMax)) chosen.max_players = seats;
  return chosen;
}

function numberOrNull(id) {
  const value = $(id).value.trim();
  return value === "" ? null : Number(value);
}

function showError(id, error) {
  const el = $(id);
  el.textContent = typeof error === "string" ? error : errorText(error);
  el.hidden = false;
}

/** Whether the table to create is rated (offered only to a logged-in account). */
function rated() {
  return !$("rated-field").hidden && $("rated").checked;
}

/**
 * The choices a rated table rules out are turned off with it (paiute.server.ratings: no bots,
 * a turn clock, no hints); no clock is for private tables only.
 */
function syncChoices() {
  const isRated = rated();
  if (isRated) {
    $("bots").value = "";
    $("hints").checked = false;
    $("no-clock").checked = false;
  }
  $("bots").disabled = isRated;
  $("hints").disabled = isRated;
  $("no-clock").disabled = isRated || !$("private").checked;
  if (!$("private").checked) $("no-clock").checked = false;
}

function playerName() {
  return $("player-name").value.trim();
}

async function createTable(event) {
  event.preventDefault();
  $("create-error").hidden = true;
  const name = playerName();
  if (!name) {
    showError("create-error", t("lobby.join.name_needed"));
    $("player-name").focus();
    return;
  }
  remember("name", name);
  const button = $("create-submit");
  button.disabled = true;
  button.textContent = t("lobby.create.creating");
  try {
    const body = {
      name: $("table-name").value.trim() || t("lobby.create.table_name.default", { name }),
      player_name: name,
      preset: $("preset").value,
      options: chosenOptions(),
      seats: Number($("seats").value),
      stake: numberOrNull("stake"),
      chips: numberOrNull("chips") ?? 100,
      bots: $("bots").value || null,
      private: $("private").checked,
      hints: $("hints").checked,
      rated: rated(),
      max_deals: numberOrNull("max-deals"),
    };
    // The turn clock (30 s and a 60 s bank unless set); none only at a private table.
    if ($("private").checked && $("no-clock").checked) body.turn_seconds = null;
    else {
      body.turn_seconds = numberOrNull("turn-seconds") ?? 30;
      body.bank_seconds = numberOrNull("bank-seconds") ?? 60;
    }
    const answer = await api("/api/tables", { method: "POST", body });
    const id = answer.table.id;
    setSeatToken(id, answer.token);
    if (answer.invite) remember(`invite.${id}`, answer.invite);
    location.assign(`/t/${encodeURIComponent(id)}`);
  } catch (error) {
    showError("create-error", error);
    button.disabled = false;
    button.textContent = t("lobby.create.submit");
  }
}

async function playNow(event) {
  event.preventDefault();
  $("play-error").hidden = true;
  const name = playerName();
  if (!name) {
    showError("play-error", t("lobby.join.name_needed"));
    $("player-name").focus();
    return;
  }
  remember("name", name);
  const button = $("play-submit");
  button.disabled = true;
  try {
    const answer = await api("/api/play", { method: "POST", body: {
        name: t("lobby.create.table_name.default", { name }),
        player_name: name,
        level: $("play-level").value,
      },
    });
    setSeatToken(answer.table.id, answer.token);
    location.assign(`/t/${encodeURIComponent(answer.table.id)}`);
  } catch (error) {
    showError("play-error", error);
    button.disabled = false;
  }
}

async function joinTable(table) {
  $("join-error").hidden = true;
  const name = playerName();
  if (!name) {
    showError("join-error", t("lobby.join.name_needed"));
    $("player-name").focus();
    return;
  }
  remember("name", name);
  try {
    const answer = await api(`/api/tables/${encodeURIComponent(table.id)}/join`, {
      method: "POST",
      body: { name, seat: null, invite: null },
    });
    setSeatToken(table.id, answer.token);
    location.assign(`/t/${encodeURIComponent(table.id)}`);
  } catch (error) {
    showError("join-error", error);
  }
}

function openTableItem(table) {
  const taken = table.players.filter((p) => p.taken || p.bot).length;
  const li = tableItem(table, table.name, [
    t("lobby.list.players", { taken, seats: table.seats }),
    presetName(table.preset),
    table.stake === null || table.stake === undefined ? null : t("lobby.list.stake", { stake: table.stake }),
    t("lobby.list.spectators", { count: table.spectators }),
    table.deals ? t("lobby.list.deals", { count: table.deals }) : null,
    table.hints ? t("lobby.list.hints") : null,
    table.rated ? t("lobby.list.rated") : null,
  ]);

  const actions = document.createElement("div");
  actions.className = "actions";
  const mine = getSeatToken(table.id);
  if (mine) {
    const back = document.createElement("a");
    back.className = "button primary";
    back.href = `/t/${encodeURIComponent(table.id)}`;
    back.textContent = t("lobby.list.resume", { table: table.name });
    actions.append(back);
  } else if (table.status === "waiting" && taken < table.seats) {
    const join = document.createElement("button");
    join.type = "button";
    join.className = "button primary";
    join.textContent = t("lobby.list.join", { table: table.name });
    join.addEventListener("click", () => joinTable(table));
    actions.append(join);
  }
  const watch = document.createElement("a");
  watch.className = "button";
  watch.href = `/t/${encodeURIComponent(table.id)}?watch=1`;
  watch.textContent = t("lobby.list.watch", { table: table.name });
  actions.append(watch);
  li.append(actions);
  return li;
}

const listing = { page: 1, pages: 1 };

function filterQuery() {
  const query = new URLSearchParams({ page: String(listing.page), per_page: String(PER_PAGE) });
  if ($("filter-open").checked) query.set("open", "true");
  if ($("filter-preset").value) query.set("preset", $("filter-preset").value);
  const stake = $("filter-stake").value.trim();
  if (stake !== "" && Number(stake) >= 0) query.set("stake", String(Math.floor(Number(stake))));
  return query;
}

async function refreshTables() {
  const list = $("table-list");
  try {
    const data = await api(`/api/tables?${filterQuery()}`);
    const tables = data.tables ?? [];
    listing.pages = Math.max(1, Math.ceil((data.total ?? tables.length) / PER_PAGE));
    if (listing.page > listing.pages) {
      listing.page = listing.pages;
      if (data.total) return refreshTables();
    }
    const filtered = $("filter-open").checked || $("filter-preset").value || $("filter-stake").value.trim();
    if (!tables.length) {
      const empty = document.createElement("li");
      empty.className = "empty";
      empty.textContent = t(filtered ? "lobby.list.none_match" : "lobby.list.empty");
      list.replaceChildren(empty);
    } else {
      list.replaceChildren(...tables.map(openTableItem));
    }
    $("page-info").textContent = t("lobby.page", { page: listing.page, pages: listing.pages });
    $("page-prev").disabled = listing.page <= 1;
    $("page-next").disabled = listing.page >= listing.pages;
  } catch (error) {
    showError("join-error", error);
  }
}

function refilter() {
  listing.page = 1;
  refreshTables();
}

async function main() {
  applyStrings();
  document.title = t("lobby.title");
  $("player-name").value = recall("name") ?? "";
  // Logged in: the account's name is the name at a table unless another was typed.
  initAccountBar((account) => {
    if (account && !$("player-name").value) $("player-name").value = account.name;
    $("rated-field").hidden = !account;
    if (!account) $("rated").checked = false;
    syncChoices();
  });
  $("create-form").addEventListener("submit", createTable);
  $("refresh").addEventListener("click", refreshTables);
  $("preset").addEventListener("change", showPresetValues);
  $("play-form").addEventListener("submit", playNow);
  $("learn-button").addEventListener("click", () => startLesson($("learn-button"), $("learn-error"), playerName()));
  // No clock only at a private table: a public one must not wait for ever on an absent player.
  $("private").addEventListener("change", syncChoices);
  $("rated").addEventListener("change", syncChoices);
  $("filters").addEventListener("submit", (event) => event.preventDefault());
  for (const id of ["filter-open", "filter-preset", "filter-stake"]) $(id).addEventListener("change", refilter);
  $("page-prev").addEventListener("click", () => {
    listing.page = Math.max(1, listing.page - 1);
    refreshTables();
  });
  $("page-next").addEventListener("click", () => {
    listing.page = Math.min(listing.pages, listing.page + 1);
    refreshTables();
  });
  try {
    buildForm(await api("/api/presets"));
  } catch (error) {
    showError("create-error", error);
  }
  await refreshTables();
  setInterval(() => {
    if (!document.hidden) refreshTables();
  }, REFRESH_MS);
}

main();
