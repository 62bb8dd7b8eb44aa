// 复盘 in the replay: one seat's decisions weighed by the strongest bot on the server (from what
// that seat could see then), its progress while it runs, then each decision's best moves and
// the loss, mistakes marked, a summary and a chart of the expected points over the game.

import { ApiError, api, errorText } from "./api.js";
import { lineChart } from "./chart.js";
import { h, mount } from "./dom.js";
import { t } from "./i18n.js";

/** Milliseconds between two looks at an analysis under way. */
const POLL = 1000;

/** The played moves' expected points, decision by decision, as a line (mistakes as dots). */
function chart(decisions) {
  return lineChart(
    decisions.map((d) => d.expected),
    { cls: "analysis-chart", label: t("analysis.chart"), marked: (i) => decisions[i].mistake },
  );
}

function resultEl(result, show) {
  const fmt = (v) => (v > 0 ? `+${v.toFixed(2)}` : v.toFixed(2));
  const rows = result.decisions.map((d) =>
    h(
      "tr",
      { class: d.mistake ? "mistake" : "", "data-index": d.index },
      h("td", {}, h("button", { class: "link go", onclick: () => show(d.index) }, d.index + 1)),
      h("td", {}, d.played),
      h("td", {}, d.moves.map((m) => `${m.action} ${fmt(m.mean)}`).join(" · ")),
      h(
        "td",
        { class: "num" },
        d.loss.toFixed(2),
        d.mistake ? h("span", { class: "badge slip" }, t("analysis.mistake")) : null,
      ),
    ),
  );
  return h(
    "div",
    { class: "analysis-result" },
    h(
      "p",
      { class: "analysis-summary" },
      t("analysis.summary", {
        decisions: result.decisions.length,
        best: Math.round(result.best_share * 100),
        mistakes: result.mistakes,
        lost: result.lost.toFixed(2),
      }),
    ),
    h("h4", {}, t("analysis.chart")),
    chart(result.decisions),
    h(
      "table",
      { class: "analysis-table" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["move", "played", "moves", "loss"].map((k) => h("th", {}, t(`analysis.col.${k}`))),
        ),
      ),
      h("tbody", {}, rows),
    ),
  );
}

/** The 复盘 panel of replay `id`: a seat (default `seat`), a button, progress, the result;
 * `show(index)` moves the replay to the step of the game's action `index`. */
export function analysisPanel(id, seat, names, show) {
  const out = h("div", { class: "analysis-out", "aria-live": "polite" });
  const choice = h(
    "select",
    { class: "analysis-seat", "aria-label": t("analysis.seat") },
    [0, 1, 2, 3, 4].map((s) => h("option", { value: s }, names(s))),
  );
  choice.value = String(seat);
  let timer = null;
  const stop = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  const render = (state) => {
    stop();
    if (state.status === "done") mount(out, resultEl(state.result, show));
    else if (state.status === "queued" || state.status === "running") {
      const text =
        state.status === "queued"
          ? t("analysis.queued")
          : t("analysis.running", { done: state.done, total: state.total });
      mount(
        out,
        h(
          "div",
          { class: "analysis-progress" },
          h("progress", { max: state.total || 1, value: state.done || 0 }),
          h("span", {}, text),
        ),
      );
      timer = setTimeout(look, POLL);
    } else if (state.status === "failed") mount(out, h("p", { class: "error" }, t("analysis.failed")));
    else mount(out, null);
  };
  const fail = (err) => {
    stop();
    const text = err instanceof ApiError && err.status === 401 ? t("analysis.login") : errorText(err);
    mount(out, h("p", { class: "error" }, text));
  };
  const look = () =>
    api("GET", `/api/games/${id}/analysis?seat=${choice.value}`).then(render, fail);
  const start = () =>
    api("POST", `/api/games/${id}/analysis`, { seat: Number(choice.value) }).then(render, fail);
  choice.addEventListener("change", look);
  const panel = h(
    "section",
    { class: "analysis", "aria-label": t("analysis.title") },
    h("h3", {}, t("analysis.title")),
    h("p", { class: "note" }, t("analysis.intro")),
    h(
      "div",
      { class: "analysis-controls" },
      h("label", {}, `${t("analysis.seat")} `, choice),
      h("button", { class: "analyse", onclick: start }, t("analysis.start")),
    ),
    out,
  );
  look();
  return { panel, stop };
}
