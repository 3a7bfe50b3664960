// What the leaderboard and the profiles share: how a rating is written (a provisional one with
// a question mark, and said in words to a screen reader) and where a player's profile is.

import { formatNumber, t } from "./strings.js";

/** The path of a player's profile page. */
export function profilePath(name) {
  return `/players/${encodeURIComponent(name)}`;
}

/** A rating as shown ({rating, provisional}): "1523", or "1523?" while it is provisional. */
export function ratingText(entry) {
  const rating = formatNumber(entry.rating);
  return entry.provisional ? t("ratings.provisional", { rating }) : rating;
}

/**
 * An element showing a rating: the question mark of a provisional one is for the eyes, the
 * words "provisional" for a screen reader.
 */
export function ratingElement(entry, text = ratingText(entry)) {
  const wrap = document.createElement("span");
  wrap.className = entry.provisional ? "rating provisional" : "rating";
  if (!entry.provisional) {
    wrap.textContent = text;
    return wrap;
  }
  const shown = document.createElement("span");
  shown.setAttribute("aria-hidden", "true");
  shown.textContent = text;
  const said = document.createElement("span");
  said.className = "sr-only";
  said.textContent = t("ratings.provisional.label", { rating: formatNumber(entry.rating) });
  wrap.append(shown, said);
  return wrap;
}
