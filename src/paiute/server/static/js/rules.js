// How to play (/rules): the sentences come from strings.js, the facts from the engine (the
// JSON the server puts in the page, paiute.server.guide: the combinations best first with an
// example each, the wild cards of an example upcard, the presets), and the cards are drawn as
// the table page draws them (cards.js).

import { cardElement, cardShort, valueText } from "./cards.js";
import { startLesson } from "./learn.js";
import { applyStrings, t } from "./strings.js";

const $ = (id) => document.getElementById(id);

function element(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

/** A rule ID beside a sentence, small: a reference, not part of what a player reads. */
function ruleRef(rule) {
  return element("span", "rule-ref", rule);
}

/** A message of strings.js, or `fallback` where it has none (a preset or option added later). */
function words(key, params, fallback) {
  const text = t(key, params);
  return text === key ? fallback : text;
}

/** A row of cards as the table draws them, one picture each (role img, its name as label). */
function cardPictures(cards, wild, label) {
  const row = element("div", "card-row rules-cards");
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", label);
  for (const card of cards) row.append(cardElement(card, { wild: wild.includes(card) }));
  return row;
}

function combination(item) {
  const li = element("li", "combo");
  li.id = `combo-${item.name}`;
  li.dataset.combination = item.name;
  const head = element("div", "combo-head");
  const title = element("h3", "combo-title");
  title.append(element("span", "", t(`rules.combo.${item.name}`)), " ", ruleRef(item.rule));
  const tags = element("div", "combo-tags");
  tags.append(
    element("span", "pill", t("rules.combo.cards", { count: item.cards })),
    element("span", "pill", t("rules.combo.units", { count: item.units })),
  );
  head.append(title, tags);
  const value = valueText(item.value);
  li.append(
    head,
    element("p", "", t(`rules.combo.${item.name}.what`)),
    cardPictures(item.shown, item.wild, t("rules.combo.example_hand", { value })),
    element("p", "combo-example", t("rules.combo.example", { value })),
  );
  for (const named of item.named) {
    li.append(element("p", "", t("rules.combo.named", { card: cardShort(named.card), named: cardShort(named.as) })));
  }
  li.append(element("p", "muted", t(`rules.combo.${item.name}.ties`)));
  return li;
}

function preset(item) {
  const li = element("li", "preset");
  li.dataset.preset = item.name;
  const title = element("h3", "", words(`lobby.create.preset.${item.name}`, {}, item.name));
  li.append(title);
  const about = words(`rules.preset.${item.name}`, {}, null);
  if (about) li.append(element("p", "", about));
  if (item.options.length === 0) {
    li.append(element("p", "", t("rules.preset.same")));
    return li;
  }
  li.append(element("p", "", t("rules.preset.differs")));
  const list = element("ul", "preset-options");
  for (const option of item.options) {
    const value = String(option.value);
    const line = element("li", "", words(`rules.option.${option.name}.${value}`, {}, `${option.name} = ${value}`));
    line.append(" ", ruleRef(option.rule));
    list.append(line);
  }
  li.append(list);
  return li;
}

function render(data) {
  const example = t("rules.deal.example", { card: cardShort(data.upcard) });
  $("deal-example").textContent = example;
  $("deal-wild").replaceChildren(cardPictures(data.wild_cards, data.wild_cards, example));
  $("turn-rebuild").textContent = t("rules.turn.rebuild", { count: data.max_rebuilds });
  $("score-stake").textContent = t("rules.score.stake", { count: data.stake });
  $("score-scale").textContent = t("rules.score.scale", { count: data.unit });
  $("combo-list").replaceChildren(...data.combinations.map(combination));
  $("preset-list").replaceChildren(...data.presets.map(preset));
}

function start() {
  applyStrings();
  document.title = t("rules.title");
  render(JSON.parse($("rules-data").textContent));
  $("learn-button").addEventListener("click", () => startLesson($("learn-button"), $("learn-error")));
  // A link to a part of the page (the lobby's "#presets") lands there once the page is drawn.
  const target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
  if (target) target.scrollIntoView();
}

start();
