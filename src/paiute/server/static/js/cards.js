// Cards on screen: canonical card text (R1.4: "7h", "Th", "Jk1") to readable, accessible elements.

import { t } from "./strings.js";

const SUIT_SYMBOLS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const RANK_ORDER = "23456789TJQKA";

/** {rank, suit, joker} of a canonical card text; jokers have rank and suit null. */
export function parseCard(text) {
  if (text.startsWith("Jk")) return { rank: null, suit: null, joker: text.slice(2) || "" };
  return { rank: text[0], suit: text[1], joker: null };
}

/** The spoken name: "seven of hearts", "joker 1" (for aria-labels). */
export function cardName(text) {
  const card = parseCard(text);
  if (card.joker !== null) return t("card.joker", { number: card.joker });
  return t("card.name", { rank: t(`rank.${card.rank}`), suit: t(`card.suit.${card.suit}`) });
}

/** The short face text: "7♥", "10♠", "Joker". */
export function cardShort(text) {
  const card = parseCard(text);
  if (card.joker !== null) return t("card.joker.short");
  return `${rankFace(card.rank)}${SUIT_SYMBOLS[card.suit]}`;
}

function rankFace(rank) {
  return "TJQKA".includes(rank) ? t(`rank.short.${rank}`) : rank;
}

/** Cards sorted for display: by rank, then suit; jokers last. */
export function sortCards(cards) {
  const key = (text) => {
    const card = parseCard(text);
    if (card.joker !== null) return 100 + Number(card.joker || 0);
    return RANK_ORDER.indexOf(card.rank) * 4 + "cdhs".indexOf(card.suit);
  };
  return [...cards].sort((a, b) => key(a) - key(b));
}

/**
 * A card element. `opts`: wild (bool), drawn (bool), taken (bool), button (bool: a <button>),
 * small (bool), disabled (bool). The element carries data-card with the canonical text.
 */
export function cardElement(text, opts = {}) {
  const card = parseCard(text);
  const el = document.createElement(opts.button ? "button" : "span");
  if (opts.button) el.type = "button";
  else el.setAttribute("role", "img");
  el.className = "card";
  el.dataset.card = text;
  if (card.joker !== null) el.classList.add("joker");
  else el.classList.add(`suit-${card.suit}`, card.suit === "d" || card.suit === "h" ? "red" : "black");
  if (opts.small) el.classList.add("small");
  let label = cardName(text);
  if (opts.wild) {
    el.classList.add("wild");
    label = t("card.wild", { card: label });
  }
  if (opts.drawn) {
    el.classList.add("drawn");
    label = t("card.drawn", { card: label });
  }
  if (opts.taken) {
    el.classList.add("taken");
    label = t("card.taken", { card: label });
  }
  // A button's name starts with the face it shows ("3♣, three of clubs"): its visible words.
  if (opts.button) label = t("card.button", { face: cardShort(text), card: label });
  el.setAttribute("aria-label", label);
  if (opts.disabled) el.disabled = true;

  const corner = document.createElement("span");
  corner.className = "corner";
  corner.setAttribute("aria-hidden", "true");
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.setAttribute("aria-hidden", "true");
  if (card.joker !== null) {
    corner.textContent = "★";
    pip.textContent = t("card.joker.short");
  } else {
    const rank = document.createElement("span");
    rank.className = "rank";
    rank.textContent = rankFace(card.rank);
    const suit = document.createElement("span");
    suit.className = "suit";
    suit.textContent = SUIT_SYMBOLS[card.suit];
    corner.append(rank, suit);
    pip.textContent = SUIT_SYMBOLS[card.suit];
  }
  el.append(corner, pip);
  const badge = opts.drawn ? "new" : opts.taken ? "taken" : opts.wild ? "wild" : null;
  if (badge) {
    const mark = document.createElement("span");
    mark.className = `badge badge-${badge}`;
    mark.setAttribute("aria-hidden", "true");
    // Drawn by the style sheet (::after), not text of the card: the name says it in words
    // ("wild", "just drawn"), and a button's own text must be in its name (WCAG 2.5.3).
    mark.dataset.label = t(`card.badge.${badge}`);
    el.append(mark);
  }
  return el;
}

/** A row of small cards (for piles, calls, logs). */
export function cardRow(cards, wild = [], opts = {}) {
  const row = document.createElement("span");
  row.className = "card-row";
  for (const text of cards) {
    row.append(cardElement(text, { small: true, wild: wild.includes(text), ...opts }));
  }
  return row;
}

/** A face-down card back (no identity: used for counts of hidden cards). */
export function cardBack() {
  const el = document.createElement("span");
  el.className = "card-back";
  el.setAttribute("aria-hidden", "true");
  return el;
}

/** A combination value's text from its JSON form {"name", "ranks"} (RECORD.md). */
export function valueText(value) {
  if (!value) return "";
  const params = {};
  value.ranks.forEach((rank, i) => {
    // Straight flushes name their top card ("king high"); the others name plural ranks.
    params[`r${i + 1}`] = value.name === "straight_flush" ? t(`rank.${rank}`) : t(`ranks.${rank}`);
  });
  return t(`value.${value.name}`, params);
}
