// The leaderboard (/leaderboard): the rated players, established ratings first, then the
// provisional ones, each part by rating (GET /api/leaderboard); a name opens the profile.

import { api, errorText } from "./api.js";
import { profilePath, ratingElement } from "./ratings.js";
import { applyStrings, formatNumber, t } from "./strings.js";

const $ = (id) => document.getElementById(id);
const PER_PAGE = 50;
const listing = { page: 1, pages: 1 };

function cell(text, className = "") {
  const td = document.createElement("td");
  if (className) td.className = className;
  if (text !== undefined) td.textContent = text;
  return td;
}

function row(entry) {
  const tr = document.createElement("tr");
  tr.dataset.player = entry.name;
  if (entry.provisional) tr.classList.add("provisional");
  const name = cell(undefined, "player");
  const link = document.createElement("a");
  link.href = profilePath(entry.name);
  link.textContent = entry.name;
  name.append(link);
  const rating = cell(undefined, "num");
  rating.append(ratingElement(entry));
  tr.append(cell(formatNumber(entry.rank), "num"), name, rating, cell(formatNumber(entry.games), "num"));
  return tr;
}

async function refresh() {
  $("board-error").hidden = true;
  try {
    const query = new URLSearchParams({ page: String(listing.page), per_page: String(PER_PAGE) });
    const data = await api(`/api/leaderboard?${query}`);
    const players = data.players ?? [];
    listing.pages = Math.max(1, Math.ceil((data.total ?? players.length) / PER_PAGE));
    $("board-rows").replaceChildren(...players.map(row));
    $("board").hidden = !players.length;
    $("board-empty").hidden = Boolean(players.length);
    $("board-page").textContent = t("lobby.page", { page: listing.page, pages: listing.pages });
    $("board-prev").disabled = listing.page <= 1;
    $("board-next").disabled = listing.page >= listing.pages;
  } catch (error) {
    $("board-error").textContent = errorText(error);
    $("board-error").hidden = false;
  }
}

function main() {
  applyStrings();
  document.title = t("ratings.title");
  $("board-prev").addEventListener("click", () => {
    listing.page = Math.max(1, listing.page - 1);
    refresh();
  });
  $("board-next").addEventListener("click", () => {
    listing.page = Math.min(listing.pages, listing.page + 1);
    refresh();
  });
  refresh();
}

main();
