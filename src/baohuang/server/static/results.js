// A game's results (结算, R10, R10.4, R13) drawn from its `game_over` data
// (src/baohuang/server/results.py game_over_data): why the points are what they are, and a row
// per seat. The replay's last step uses it; the live table's results window (resultsWindow)
// says the same, with the match so far.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { rematchButton } from "./room.js";

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

/** A seat's rating change (段位分) after the game, from the optional `ratings` of its
 * `game_over` data ({seat: {before, after, delta}}): "1512 (+12)", or "–". */
function ratingCell(over, s) {
  const r = over.ratings?.[s];
  return r ? `${r.after} (${signed(r.delta)})` : "–";
}

/** A row per seat: name, role, place (头科 … 大落, or 逃跑), points, the rating change
 * (段位分) and the match's totals when `over` has them; `me` is the viewer's seat (or null). */
export function gameTable(over, name, me = null) {
  const { result } = over;
  const scores = over.scores ?? result.scores;
  const totals = over.totals?.length === 5 ? over.totals : null;
  const ratings = over.ratings && Object.keys(over.ratings).length ? over.ratings : null;
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
      ratings ? h("td", { class: "num rating" }, ratingCell(over, s)) : null,
      totals ? h("td", { class: "num total" }, signed(totals[s])) : null,
    );
  });
  const head = [
    "col.player",
    "col.role",
    "col.place",
    "col.points",
    ratings ? "col.rating" : null,
    totals ? "col.total" : null,
  ];
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

// ------------------------------------------------------------ the table's results window

/** The match so far, a row per seat and a column per game: names as the last game had them
 * (`players`), or the seats' now. `p` is the TablePage of table.js. */
function matchTable(p, players) {
  const { results, totals } = p.info;
  return h(
    "table",
    { class: "grid results-table match-table" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", {}, t("col.player")),
        results.map((_, g) => h("th", {}, t("col.game", { n: g + 1 }))),
        h("th", {}, t("col.total")),
      ),
    ),
    h(
      "tbody",
      {},
      [0, 1, 2, 3, 4].map((s) =>
        h(
          "tr",
          { class: s === p.seat ? "me" : "", "data-seat": s },
          h("td", {}, p.seatName(s, players?.[s])),
          results.map((g) => h("td", { class: "num" }, signed(g[s]))),
          h("td", { class: "num total" }, signed(totals[s])),
        ),
      ),
    ),
  );
}

/** While the window is open the table plays on behind it: say that the next game has begun,
 * and when this seat has a decision to make, say so (with the turn clock, which keeps running
 * towards 托管) and offer the way back to the table. */
function nextGameBar(p, over) {
  const mine = p.decides();
  const begun = over && p.info.game !== null && p.info.game > over.game;
  if (!mine && !begun) return null;
  const left = mine && p.clock?.seat === p.seat ? p.secondsLeft() : null;
  return h(
    "div",
    { class: `results-next${mine ? " my-turn" : ""}`, role: mine ? "alert" : "status" },
    begun ? h("span", {}, t("results.next_game", { n: p.info.game + 1 })) : null,
    mine ? h("strong", {}, t("turn.you")) : null,
    left === null
      ? null
      : h(
          "span",
          { class: "clock", "data-total": p.clock.timer || p.info.config.timer || left },
          String(left),
        ),
    mine
      ? h(
          "button",
          { class: "primary to-table", onclick: () => p.closeResults() },
          t("btn.to_table"),
        )
      : null,
  );
}

/**
 * The results window (`p.modal`): a finished game's table (`kind: "game"`, `over` its
 * `game_over` data) and, after the match or when reopened by 成绩, the match so far; or the
 * match table alone (`kind: "match"`, when the last game's data is not at hand). It stays
 * until the person closes it: the next game goes on behind it.
 */
export function resultsWindow(p) {
  const m = p.modal;
  const over = m.over;
  const close = () => p.closeResults();
  const name = (s) => p.seatName(s, over?.players?.[s]);
  const games = p.info.results.length;
  const final = m.matchOver || p.info.status === "finished";
  const matchTitle = t(final ? "totals.title" : "totals.so_far", { games });
  const title = m.kind === "game" ? resultsTitle(over) : matchTitle;
  return h(
    "div",
    { class: "modal-back", onclick: (ev) => ev.target === ev.currentTarget && close() },
    h(
      "div",
      { class: "modal results", role: "dialog", "aria-label": title },
      nextGameBar(p, over),
      h("h2", {}, title),
      m.kind === "game" ? [scoringNotes(over, name), gameTable(over, name, p.seat)] : matchTable(p),
      m.kind === "game" && (m.matchOver || m.reopened) && games
        ? [h("h2", {}, matchTitle), matchTable(p, over.players)]
        : null,
      h(
        "div",
        { class: "modal-buttons" },
        over?.record
          ? h(
              "a",
              {
                class: "button",
                href: `/api/games/${over.record}/record`,
                download: `baohuang-${over.record}.json`,
              },
              t("btn.download"),
            )
          : null,
        rematchButton(p),
        h("button", { class: "primary close", onclick: close }, t("btn.close")),
      ),
    ),
  );
}
