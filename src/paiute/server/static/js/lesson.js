// The coach of a lesson table ("Learn to play", paiute.server.lesson): the guided first deal of
// `paiute learn`, at the table page. The server keeps the lesson's step and checks every input
// of the person (a `lesson` message: go on, a card answered, the combinations looked at, or a
// draw, discard or call); its View says the step and what the coach's words name, and the ack
// of each message says what the coach answers. This module words them (strings.js, lesson.*)
// and draws the coach's panel; it decides nothing: a wrong input is the server's to answer.

import { recall } from "./api.js";
import { cardShort, valueText } from "./cards.js";
import { playRealGame } from "./learn.js";
import { t } from "./strings.js";
import { seatName } from "./words.js";

const $ = (id) => document.getElementById(id);

/** The steps read, then gone on from with the panel's button (the last one ends the lesson). */
const READ = new Set(["welcome", "last_round", "result"]);
/** Where the keyboard goes when a step begins: the control it asks for. */
const FOCUS = {
  welcome: "#coach-next",
  wild: "#hand [data-card]",
  draw: "#draw-stock",
  discard: "#hand [data-card]",
  take: "#draw-discard",
  try_taken: "#hand [data-card]",
  discard_other: "#hand [data-card]",
  last_round: "#coach-next",
  last_draw: "#draw-stock",
  combinations: "#coach-combos-button",
  call: "#call-best",
  result: "#coach-next",
  done: "#coach-play",
};

const coach = {
  send: null, // sends a lesson message; resolves with its ack (table.js)
  view: null, // the last View drawn
  reply: null, // the coach's last answer, shown while the lesson is at its step
  ranks: null, // where the combinations rank (shown from the combinations step on)
  step: null, // the step the panel last showed
  focusDue: false, // the step began while the bots played: the keyboard moves once it is ready
};

/** Whether `view` is the person's own view of a lesson table (the coach is theirs). */
export function isLesson(view) {
  return Boolean(view?.lesson);
}

/** A lesson table's page: its title is the lesson's (also for a spectator). */
export function lessonTitle(view) {
  return view?.table?.lesson ? t("lesson.title") : null;
}

/** The message for a draw, discard or call at a lesson table (the coach checks it), else null. */
export function lessonMove(view, action) {
  return isLesson(view) ? { type: "lesson", input: "action", action } : null;
}

/** Whether the hand's cards take clicks now: at a lesson the coach answers every one. */
export function lessonCardsOpen(view) {
  return isLesson(view) && Boolean(view.lesson.ready);
}

/** A card of the hand clicked at a lesson table: the answer at the wild-card step, else a discard. */
export function lessonCard(view, card) {
  if (view.lesson.step === "wild") return { type: "lesson", input: "answer", card };
  return { type: "lesson", input: "action", action: `discard ${card}` };
}

/**
 * Wire the panel's buttons: `send(message)` sends a lesson message and resolves with its ack;
 * `openSummary()` shows the deal's summary (every hand, R9.3).
 */
export function wireCoach(send, { openSummary }) {
  coach.send = send;
  $("coach-next").addEventListener("click", () => say({ type: "lesson", input: "proceed" }));
  $("coach-combos-button").addEventListener("click", () => say({ type: "lesson", input: "combinations" }));
  $("coach-hands").addEventListener("click", openSummary);
  $("coach-play").addEventListener("click", () => {
    // The real game is played under the name this browser remembers, else the lesson's.
    const view = coach.view;
    const name = recall("name") ?? seatName(view, view?.you);
    playRealGame(name, $("coach-play"), $("coach-error"));
  });
}

/** Send a lesson message and show the coach's answer. */
export async function say(message) {
  if (!coach.send) return undefined;
  const ack = await coach.send(message);
  lessonAnswered(ack);
  return ack;
}

/** The acknowledgement of a lesson message: the coach's answer (it names the step it is for). */
export function lessonAnswered(ack) {
  const answer = ack?.coach;
  if (!answer) return;
  coach.reply = answer;
  if (answer.says === "ranks") coach.ranks = answer.ranks;
  if (coach.view) renderCoach(coach.view);
}

/** Draw the coach's panel from the View (hidden but at a lesson table's seat). */
export function renderCoach(view, { busy = false } = {}) {
  const panel = $("coach");
  const lesson = view.lesson;
  panel.hidden = !lesson;
  coach.view = view;
  if (!lesson) return;
  const changed = coach.step !== lesson.step;
  panel.dataset.step = lesson.step;
  panel.dataset.ready = String(Boolean(lesson.ready));
  $("coach-progress").textContent = t("lesson.progress", { n: lesson.number, count: lesson.steps });
  $("coach-text").textContent = lesson.ready ? stepText(view, lesson) : waitingText(view, lesson);

  // The last answer, while the lesson is at the step it names (going on says nothing more).
  const said = coach.reply;
  const reply = Boolean(said) && said.step === lesson.step && !["go_on", "playing"].includes(said.says);
  const box = $("coach-reply");
  box.hidden = !reply;
  box.textContent = reply ? replyText(view, said) : "";
  box.classList.toggle("warning", reply && said.warning);
  panel.dataset.says = reply ? said.says : "";

  renderRanks(["call", "result", "done"].includes(lesson.step) ? coach.ranks : null);

  const next = $("coach-next");
  next.hidden = !(READ.has(lesson.step) && lesson.ready);
  next.textContent = t(lesson.step === "welcome" ? "lesson.begin" : "lesson.next");
  next.disabled = busy;
  $("coach-combos-button").hidden = !(lesson.step === "combinations" && lesson.ready);
  $("coach-combos-button").disabled = busy;
  $("coach-hands").hidden = !(["result", "done"].includes(lesson.step) && view.last_deal);
  $("coach-play").hidden = lesson.step !== "done";
  $("coach-lobby").hidden = lesson.step !== "done";
  if (changed) coach.step = lesson.step;
  if (changed || coach.focusDue) {
    coach.focusDue = !lesson.ready;
    if (lesson.ready) focusFor(lesson.step);
  }
}

/** The keyboard goes to what the step asks for, unless it is somewhere that matters. */
function focusFor(step) {
  const active = document.activeElement;
  const lost =
    !active ||
    active === document.body ||
    !active.isConnected ||
    active.disabled ||
    Boolean(active.closest("[hidden]")) ||
    Boolean(active.closest("#coach"));
  if (!lost) return;
  const target = document.querySelector(FOCUS[step]);
  if (target && !target.disabled && !target.closest("[hidden]")) target.focus();
}

function waitingText(view, lesson) {
  const who = lesson.facts?.who;
  if (view.status === "cut" || view.status === "waiting") return t("lesson.dealing");
  if (who === null || who === undefined) return t("lesson.dealing");
  return t("lesson.playing", { name: seatName(view, who) });
}

function card(text) {
  return text ? cardShort(text) : "";
}

/** What the coach says at a step that can be taken now. */
function stepText(view, lesson) {
  const facts = lesson.facts ?? {};
  switch (lesson.step) {
    case "wild":
      return t("lesson.step.wild", { upcard: card(facts.upcard), ranks: t(`ranks.${facts.upcard?.[0]}`) });
    case "discard":
    case "try_taken":
    case "discard_other":
      return t(`lesson.step.${lesson.step}`, { card: card(facts.card) });
    case "take":
      return t("lesson.step.take", {
        who: seatName(view, facts.who),
        card: card(facts.card),
        pair: card(facts.pair),
      });
    case "last_round":
      return t("lesson.step.last_round", { who: seatName(view, facts.who), value: valueText(facts.value) });
    case "combinations":
      return t("lesson.step.combinations", { value: valueText(facts.value) });
    case "result": {
      const winners = facts.winners ?? [];
      const names = winners.map((seat) => seatName(view, seat)).join(t("summary.names_separator"));
      const won =
        winners.length === 1 && winners[0] === view.you
          ? t("lesson.result.won", { count: facts.pot })
          : t("lesson.result.lost", { names });
      return `${won} ${t("lesson.step.result")}`;
    }
    default:
      return t(`lesson.step.${lesson.step}`);
  }
}

/** The coach's answer to the last input. */
function replyText(view, reply) {
  const facts = view.lesson.facts ?? {};
  switch (reply.says) {
    case "hint":
      return t(`lesson.hint.${view.lesson.step}`, { card: card(facts.card) });
    case "playing":
      return t("lesson.playing", { name: seatName(view, reply.who) });
    case "refused":
      return t("lesson.say.refused", { reason: reply.message ?? reply.rule ?? "" });
    case "ranks":
      return t("lesson.say.ranks", {
        mine: t(`rules.combo.${reply.ranks.mine}`),
        a: reply.ranks.mine_place,
        who: seatName(view, reply.ranks.caller),
        theirs: t(`rules.combo.${reply.ranks.theirs}`),
        b: reply.ranks.theirs_place,
      });
    case "best_call":
      return t("lesson.say.best_call", { value: valueText(view.best_call?.value) });
    case "called":
      return t("lesson.say.called", { value: valueText(reply.value) });
    case "keep":
      return t("lesson.say.keep", { card: card(reply.card), target: card(reply.other) });
    case "drew_pair":
      return t("lesson.say.drew_pair", { card: card(reply.card), pair: card(reply.other) });
    default:
      return t(`lesson.say.${reply.says}`, { card: card(reply.card) });
  }
}

/** The six combinations, best first, the hand's and the caller's marked (R5). */
function renderRanks(ranks) {
  const list = $("coach-combos");
  list.hidden = !ranks;
  if (!ranks) {
    list.replaceChildren();
    return;
  }
  list.replaceChildren(
    ...ranks.order.map((name) => {
      const item = document.createElement("li");
      item.dataset.combination = name;
      const title = document.createElement("strong");
      title.textContent = t(`rules.combo.${name}`);
      item.append(title);
      const what = document.createElement("span");
      what.className = "muted";
      what.textContent = ` ${t(`rules.combo.${name}.what`)}`;
      item.append(what);
      if (name === ranks.mine || name === ranks.theirs) {
        const whose = name === ranks.mine ? "mine" : "theirs";
        const mark = document.createElement("span");
        mark.className = `pill ${whose}`;
        mark.textContent =
          whose === "mine"
            ? t("lesson.ranks.yours")
            : t("lesson.ranks.theirs", { name: seatName(coach.view, ranks.caller) });
        item.append(" ", mark);
        item.classList.add(whose);
      }
      return item;
    }),
  );
}
