// A player's profile (/players/NAME): the account's rating, its rated matches so far and its
// latest rated results (GET /api/players/NAME); a private table's result comes without it.

import { api, errorText } from "./api.js";
import { ratingElement, ratingText } from "./ratings.js";
import { applyStrings, currentLanguage, formatNumber, t } from "./strings.js";

const $ = (id) => document.getElementById(id);
const PREFIX = "/players/";

function signed(number) {
  return number > 0 ? `+${formatNumber(number)}` : formatNumber(number);
}

function when(seconds) {
  const date = new Date(seconds * 1000);
  const time = document.createElement("time");
  time.dateTime = date.toISOString();
  time.textContent = new Intl.DateTimeFormat(currentLanguage(), { dateStyle: "medium", timeStyle: "short" }).format(
    date,
  );
  return time;
}

function resultItem(result) {
  const li = document.createElement("li");
  li.className = "recent-item";
  const head = document.createElement("div");
  head.className = "recent-head";
  if (result.table) {
    const link = document.createElement("a");
    link.href = `/t/${encodeURIComponent(result.table)}`;
    link.textContent = result.table_name ?? result.table;
    head.append(link);
  } else {
    const hidden = document.createElement("span");
    hidden.className = "muted";
    hidden.textContent = t("ratings.result.private");
    head.append(hidden);
  }
  head.append(" ", when(result.at));
  const line = document.createElement("p");
  line.className = result.change > 0 ? "gain" : result.change < 0 ? "loss" : "";
  line.textContent = t("ratings.result", {
    place: result.place,
    of: result.of,
    before: result.rating_before,
    after: result.rating,
    change: signed(result.change),
  });
  li.append(head, line);
  return li;
}

function render(player) {
  $("player-name").textContent = player.name;
  document.title = t("ratings.player.title", { name: player.name });
  const text = t("ratings.player.deviation", { rating: ratingText(player), deviation: player.deviation });
  $("player-rating").replaceChildren(ratingElement(player, text));
  $("player-games").textContent = formatNumber(player.games);
  $("player-facts").hidden = false;
  $("player-provisional").hidden = !player.provisional;
  const recent = player.recent ?? [];
  $("recent").replaceChildren(...recent.map(resultItem));
  $("recent-none").hidden = Boolean(recent.length);
  $("recent-box").hidden = false;
}

async function main() {
  applyStrings();
  let name = location.pathname.slice(PREFIX.length);
  try {
    name = decodeURIComponent(name);
  } catch {
    // A path that is not valid UTF-8: asked for as it is, and refused by the server.
  }
  $("player-name").textContent = name;
  document.title = t("ratings.player.title", { name });
  try {
    render(await api(`/api/players/${encodeURIComponent(name)}`));
  } catch (error) {
    $("player-error").textContent = errorText(error);
    $("player-error").hidden = false;
  }
}

main();
