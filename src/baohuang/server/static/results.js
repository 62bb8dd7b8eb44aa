// A game's results (结算, R10, R10.4, R13) drawn from its `game_over` data
// (src/baohuang/server/results.py game_over_data): why the points are what they are, and a row
// per seat. The replay's last step uses it; the live table's results window says the same.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export const signed = (n) => (n > 0 ? `+${n}` : String(n));

/** Why the points are what they are: T and its multipliers, or why the game is not scored.
 * `name(seat)` names a seat. */
export function scoringNotes(over, name) {
  const { result, scoring } = over;
  const notes = [];
  if (result.outcome === "escape") {
    notes.push(["warn", t("results.escaped", { name: name(result.escaped) })]); // R10.4
  } else if (over.unscored) {
    notes.push(["warn", t(`results.unscored.${over.unscored}`)]); // R13
  } else if (scoring && scoring.t !== null) {
    const factors = scoring.factors.map(([code, factor]) =>
      code === "open_solo_fixed"
        ? t("factor.open_solo_fixed")
        : `${t(`factor.${code}`)} ×${factor}`,
    );
    let line = [t("results.t", { t: signed(scoring.t) }), ...factors].join(" · ");
    if (factors.length && "final" in scoring)
      line += ` → ${t("results.t_final", { t: signed(scoring.final) })}`;
    notes.push(["scoring", line]);
    notes.push(["rule", t("results.rule")]);
  }
  if (over.tribute) {
    // R10.3: QQ's rule names who pays tribute, whoever won on points; said loudly when they differ.
    const { side, points } = over.tribute;
    const text = t(`results.tribute_qq.${side}`, { points: signed(points) });
    notes.push([side === result.outcome ? "rule" : "warn", text]);
  }
  if (over.dissolved) notes.push(["warn", t("results.dissolved")]); // R13 dissolve_on_auto
  return notes.map(([cls, text]) => h("p", { class: `results-note ${cls}` }, text));
}

/** A seat's role in words: the emperor alone says 明独 or 暗独 (R9.2). */
export function roleWords(over, s) {
  const role = over.roles?.[s];
  if (!role) return "–";
  if (role !== "solo") return t(`role.${role}`);
  return `${t("role.emperor")} · ${t(over.result.open_solo ? "solo.open" : "solo.dark")}`;
}

/** A row per seat: name, role, place (头科 … 大落, or 逃跑), points, and the match's totals
 * when `over` has them; `me` is the viewer's seat (or null). */
export function gameTable(over, name, me = null) {
  const { result } = over;
  const scores = over.scores ?? result.scores;
  const totals = over.totals?.length === 5 ? over.totals : null;
  const rows = [0, 1, 2, 3, 4].map((s) => {
    const place = result.places.indexOf(s);
    return h(
      "tr",
      { class: s === me ? "me" : "", "data-seat": s },
      h("td", {}, name(s)),
      h("td", { class: "role" }, roleWords(over, s)),
      h(
        "td",
        { class: "place" },
        result.escaped === s ? t("role.escaped") : place >= 0 ? t(`place.${place + 1}`) : "–",
      ),
      h("td", { class: "num points" }, signed(scores[s])),
      totals ? h("td", { class: "num total" }, signed(totals[s])) : null,
    );
  });
  const head = ["col.player", "col.role", "col.place", "col.points", totals ? "col.total" : null];
  return h(
    "table",
    { class: "grid results-table" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        head.filter(Boolean).map((k) => h("th", {}, t(k))),
      ),
    ),
    h("tbody", {}, rows),
  );
}

/** The game's title: 第 N 局结果：outcome. */
export function resultsTitle(over) {
  return t("results.title", { n: over.game + 1, outcome: t(`outcome.${over.result.outcome}`) });
}
