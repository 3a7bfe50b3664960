// What the lobby and "My tables" share: how a table stands in a list (its name and status, a
// line of facts, the names of those at it) and how a preset is named.

import { t } from "./strings.js";

/** A preset's name in the page's language, or as the server names it where strings.js has none. */
export function presetName(name) {
  const key = `lobby.create.preset.${name}`;
  return t(key) === key ? name : t(key);
}

/**
 * A list item for a table: a heading with `name` and the table's status, the `facts` that are
 * given (a null one is left out) on one line, and the names of the people and bots seated. The
 * page appends the rest (a result, the actions).
 */
export function tableItem(table, name, facts) {
  const li = document.createElement("li");
  li.className = `table-item status-${table.status}`;
  li.dataset.tableId = table.id;
  const head = document.createElement("div");
  head.className = "table-item-head";
  const title = document.createElement("h3");
  title.textContent = name;
  const status = document.createElement("span");
  status.className = "pill";
  status.textContent = t(`lobby.list.status.${table.status}`);
  head.append(title, status);

  const info = document.createElement("p");
  info.className = "muted";
  info.textContent = facts.filter(Boolean).join(" · ");
  const names = document.createElement("p");
  names.className = "names";
  names.textContent = table.players
    .filter((p) => p.taken || p.bot)
    .map((p) => p.name)
    .join(", ");
  li.append(head, info, names);
  return li;
}
