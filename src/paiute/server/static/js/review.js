// The review of a finished deal on the replay page (GET /api/tables/{id}/deals/{n}/review):
// every decision's mark and the better action at each step (or why a loss has no mark), a
// summary per seat, and a chart of each seat's net chips through the deal (paiute-review/2: what
// a seat expects to win or lose this deal, after its stake; the hint's figures there). After the deal nothing is hidden (R9.3). The
// chart is inline SVG built here (no library, no inline script: the page's CSP allows this file).

import { api, errorText, withInvite } from "./api.js";
import { formatChips, formatNumber, t } from "./strings.js";
import { actionWords } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 1500;
const MAX_POLLS = 2400; // an hour at most, then the page stops asking
//: One colour per seat (up to eight, R2.1), readable on the felt.
const COLOURS = ["#f2c14e", "#4fa3ff", "#ff8a8a", "#7ee2a8", "#d59bff", "#ffb36b", "#9ee6ff", "#ffffff"];

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function svg(tag, attributes = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

/** Chips as the hint and the terminal's review write them (+0.40, -1.25). */
const chips = (value) => formatChips(value);
/** A loss, never negative: two decimals, no sign (0.56). */
const loss = (value) => formatChips(value, { signed: false });

/**
 * Ask for the review until it is ready; `onUpdate(review | null, status)` after each answer.
 * `access` ({token, invite}) is what a private table's review needs, as its replay does.
 * Returns a function that stops asking (another deal was chosen).
 */
export function followReview(tableId, deal, access, onUpdate) {
  let stopped = false;
  let polls = 0;
  const url = withInvite(`/api/tables/${encodeURIComponent(tableId)}/deals/${deal}/review`, access.invite);
  async function ask() {
    if (stopped) return;
    polls += 1;
    try {
      const answer = await api(url, { token: access.token });
      if (stopped) return;
      if (answer.status === "ready") {
        onUpdate(answer, null);
        return;
      }
      onUpdate(null, answer.total == null ? t("review.queued") : t("review.pending", answer));
    } catch (error) {
      if (stopped) return;
      onUpdate(null, t("review.error", { message: errorText(error) }));
      return;
    }
    if (polls < MAX_POLLS) setTimeout(ask, POLL_MS);
  }
  ask();
  return () => {
    stopped = true;
  };
}

/** The reviewed decision at a replay step (step k shows the state after action k - 1). */
export function decisionAt(review, step) {
  return review?.decisions?.find((d) => d.action === step - 1) ?? null;
}

/** The review line of one step: its mark and the better action, or that nothing better was found. */
export function renderStep(container, review, step, name) {
  container.replaceChildren();
  if (!review || step === 0) return;
  const decision = decisionAt(review, step);
  if (!decision) {
    container.append(el("p", "review-line muted", t("review.step.forced")));
    return;
  }
  const line = el("p", "review-line");
  line.dataset.mark = decision.mark ?? "none";
  if (decision.mark) {
    line.append(el("span", `tag mark mark-${decision.mark}`, t(`review.mark.${decision.mark}`)));
  }
  // The better action is named only where it is another and worth more (Decision.better, the
  // server's `better`): a move that did no worse than the hint's is no error in itself.
  const better = decision.better;
  const text = better
    ? t("review.step.loss", {
        name: name(decision.seat),
        best: actionWords(better),
        best_chips: chips(decision.net_best),
        played_chips: chips(decision.net_played),
        loss: loss(decision.loss),
      })
    : t("review.step.none", { name: name(decision.seat), played: chips(decision.net_played) });
  line.append(el("span", "", text));
  // Why a loss has no mark (Decision.unmarked): too small, or within the playouts' noise.
  if (decision.unmarked === "noise") {
    line.append(el("span", "muted", t("review.unmarked.noise", { count: decision.samples })));
  } else if (decision.unmarked === "small") {
    const share = t("hint.percent", { percent: formatNumber(10) });
    line.append(el("span", "muted", t("review.unmarked.small", { share, stake: decision.stake })));
  }
  container.append(line);
}

/** Each seat's summary and its marked decisions (a button that goes to the step). */
export function renderSummary(container, review, name, go) {
  container.replaceChildren();
  if (!review) return;
  for (const summary of review.summary) {
    const item = el("li", "review-seat");
    item.dataset.seat = String(summary.seat);
    const swatch = el("span", "swatch");
    swatch.dataset.seat = String(summary.seat % COLOURS.length);
    item.append(swatch, el("strong", "", name(summary.seat)));
    item.append(
      el(
        "span",
        "review-figures",
        t("review.summary", {
          accuracy:
            summary.accuracy === null ? "-" : t("hint.percent", { percent: formatNumber(summary.accuracy, 1) }),
          inaccuracy: summary.inaccuracy,
          mistake: summary.mistake,
          blunder: summary.blunder,
          loss: loss(summary.loss),
        }),
      ),
    );
    const marks = el("span", "review-marks");
    for (const decision of review.decisions) {
      if (decision.seat !== summary.seat || !decision.mark) continue;
      const button = el("button", `button ghost tag mark mark-${decision.mark}`);
      button.type = "button";
      button.textContent = t("review.mark.at", {
        mark: t(`review.mark.${decision.mark}`),
        step: decision.action + 1,
      });
      button.addEventListener("click", () => go(decision.action + 1));
      marks.append(button);
    }
    item.append(marks);
    container.append(item);
  }
}

/**
 * The chart: each seat's net chips after each of its decisions (the action played), a dot for
 * each mark, and a line at the current step. Steps run left to right; 0 is break-even.
 */
export function renderChart(container, review, steps, step, name) {
  container.replaceChildren();
  if (!review || !review.decisions.length) return;
  const width = 640;
  const height = 200;
  const pad = { left: 44, right: 12, top: 12, bottom: 24 };
  const values = review.decisions.flatMap((d) => [d.net_played, d.net_best]);
  let low = Math.min(0, ...values);
  let high = Math.max(0, ...values);
  if (high - low < 1) high = low + 1;
  const x = (s) => pad.left + ((width - pad.left - pad.right) * s) / Math.max(1, steps - 1);
  const y = (v) => pad.top + ((height - pad.top - pad.bottom) * (high - v)) / (high - low);
  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    role: "img",
    class: "review-chart-svg",
    "aria-label": t("review.chart"),
  });
  chart.append(svg("title"));
  chart.firstChild.textContent = t("review.chart");
  chart.append(svg("line", { x1: pad.left, x2: width - pad.right, y1: y(0), y2: y(0), class: "axis" }));
  for (const value of [low, high]) {
    const label = svg("text", { x: pad.left - 6, y: y(value) + 4, "text-anchor": "end", class: "axis-label" });
    label.textContent = chips(value);
    chart.append(label);
  }
  const seats = [...new Set(review.decisions.map((d) => d.seat))].sort((a, b) => a - b);
  for (const seat of seats) {
    const own = review.decisions.filter((d) => d.seat === seat);
    const colour = COLOURS[seat % COLOURS.length];
    const points = own.map((d) => `${x(d.action + 1).toFixed(1)},${y(d.net_played).toFixed(1)}`).join(" ");
    const line = svg("polyline", { points, fill: "none", stroke: colour, "stroke-width": 2, class: "seat-line" });
    line.dataset.seat = String(seat);
    const label = svg("title");
    label.textContent = name(seat);
    line.append(label);
    chart.append(line);
    for (const d of own) {
      if (!d.mark) continue;
      const dot = svg("circle", {
        cx: x(d.action + 1),
        cy: y(d.net_played),
        r: d.mark === "blunder" ? 6 : d.mark === "mistake" ? 5 : 4,
        fill: colour,
        class: `mark-dot mark-${d.mark}`,
      });
      const tip = svg("title");
      tip.textContent = `${name(seat)}: ${t(`review.mark.${d.mark}`)}`;
      dot.append(tip);
      chart.append(dot);
    }
  }
  chart.append(svg("line", { x1: x(step), x2: x(step), y1: pad.top, y2: height - pad.bottom, class: "now" }));
  container.append(chart);
}
