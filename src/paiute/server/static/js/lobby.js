// The lobby page: create a table, list the open tables, join a seat or watch.

import { api, errorText, getSeatToken, recall, remember, setSeatToken } from "./api.js";
import { applyStrings, formatNumber, t } from "./strings.js";

const MIN_SEATS = 2;
const MAX_SEATS = 8; // R2.1: max_players is at most 8
const DEFAULT_SEATS = 4;
const REFRESH_MS = 5000;
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

function buildForm(data) {
  presets = data.presets ?? {};
  options = data.options ?? [];
  const preset = $("preset");
  preset.replaceChildren(
    ...Object.keys(presets).map((name) => {
      const key = `lobby.create.preset.${name}`;
      const label = t(key) === key ? name : t(key);
      return option(name, label, name === "pagat");
    }),
  );
  const seats = $("seats");
  for (let n = MIN_SEATS; n <= MAX_SEATS; n += 1) seats.append(option(n, formatNumber(n), n === DEFAULT_SEATS));
  const bots = $("bots");
  bots.replaceChildren(option("", t("lobby.create.bots.none")));
  for (const spec of data.bots ?? []) bots.append(option(spec, spec, spec === "greedy"));

  const grid = $("options");
  grid.replaceChildren();
  for (const opt of options) {
    if (OWN_FIELDS.has(opt.name)) continue;
    const field = document.createElement("div");
    field.className = "field";
    const id = `opt-${opt.name}`;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = opt.name;
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
        for (const choice of opt.choices ?? []) input.append(option(choice, choice));
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
    let shown = String(value);
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
      turn_seconds: numberOrNull("turn-seconds"),
      max_deals: numberOrNull("max-deals"),
    };
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

function tableItem(table) {
  const li = document.createElement("li");
  li.className = `table-item status-${table.status}`;
  li.dataset.tableId = table.id;
  const head = document.createElement("div");
  head.className = "table-item-head";
  const title = document.createElement("h3");
  title.textContent = table.name;
  const status = document.createElement("span");
  status.className = "pill";
  status.textContent = t(`lobby.list.status.${table.status}`);
  head.append(title, status);

  const taken = table.players.filter((p) => p.taken || p.bot).length;
  const facts = [
    t("lobby.list.players", { taken, seats: table.seats }),
    table.preset,
    table.stake === null || table.stake === undefined ? null : t("lobby.list.stake", { stake: table.stake }),
    t("lobby.list.spectators", { count: table.spectators }),
    table.deals ? t("lobby.list.deals", { count: table.deals }) : null,
  ].filter(Boolean);
  const info = document.createElement("p");
  info.className = "muted";
  info.textContent = facts.join(" · ");
  const names = document.createElement("p");
  names.className = "names";
  names.textContent = table.players
    .filter((p) => p.taken || p.bot)
    .map((p) => p.name)
    .join(", ");

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
  li.append(head, info, names, actions);
  return li;
}

async function refreshTables() {
  const list = $("table-list");
  try {
    const data = await api("/api/tables");
    const tables = data.tables ?? [];
    if (!tables.length) {
      const empty = document.createElement("li");
      empty.className = "empty";
      empty.textContent = t("lobby.list.empty");
      list.replaceChildren(empty);
    } else {
      list.replaceChildren(...tables.map(tableItem));
    }
  } catch (error) {
    showError("join-error", error);
  }
}

async function main() {
  applyStrings();
  document.title = t("lobby.title");
  $("player-name").value = recall("name") ?? "";
  $("create-form").addEventListener("submit", createTable);
  $("refresh").addEventListener("click", refreshTables);
  $("preset").addEventListener("change", showPresetValues);
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
