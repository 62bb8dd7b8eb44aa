// The history page (我的战绩: /api/me/games, the 段位 chart from /api/me/ratings) and the
// leaderboard (排行榜: /api/leaderboard?preset=P, people and bot levels on one ladder).

import { api, errorText, loadPresets, session } from "./api.js";
import { lineChart } from "./chart.js";
import { h, mount } from "./dom.js";
import { lang, t } from "./i18n.js";
import { loginBox } from "./lobby.js";

const signed = (n) => (n > 0 ? `+${n}` : String(n));
const label = (key, fallback) => {
  const text = t(key);
  return text === key ? fallback : text;
};

function failure(root, err) {
  mount(root, h("div", { class: "panel error" }, errorText(err)));
}

/** A page panel titled `${prefix}.title`: a table with the column keys `head` (`null`: an
 *  untitled column) and the rows `body`, or `${prefix}.empty` when there are none. */
function gridPanel(root, cls, head, body, prefix = cls) {
  mount(
    root,
    h(
      "section",
      { class: `panel ${cls}` },
      h("h2", {}, t(`${prefix}.title`)),
      body.length
        ? h(
            "table",
            { class: "grid" },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                head.map((k) => h("th", {}, k && t(k))),
              ),
            ),
            h("tbody", {}, body),
          )
        : h("p", { class: "empty" }, t(`${prefix}.empty`)),
    ),
  );
}

function gameRow(g) {
  const when = g.finished
    ? new Date(g.finished * 1000).toLocaleString(lang === "en" ? "en" : "zh-CN")
    : "";
  return h(
    "tr",
    { "data-game": g.id },
    h("td", {}, `#${g.id}`, when ? h("div", { class: "sub" }, when) : null),
    h(
      "td",
      {},
      h("a", { href: `#/table/${g.table}` }, `#${g.table}`),
      ` · ${t("col.game", { n: g.index + 1 })}`,
    ),
    h("td", {}, label(`preset.${g.preset}`, g.preset)),
    h("td", {}, g.role ? label(`role.${g.role}`, g.role) : "–"),
    h("td", {}, g.place ? t(`place.${g.place}`) : "–"),
    h("td", { class: "num" }, typeof g.points === "number" ? signed(g.points) : "–"),
    h(
      "td",
      {},
      h(
        "div",
        { class: "row-actions" },
        h("a", { class: "button replay", href: `#/replay/${g.id}` }, t("history.replay")),
        h(
          "a",
          { class: "button", href: `/api/games/${g.id}/record`, download: `baohuang-${g.id}.json` },
          t("btn.download"),
        ),
      ),
    ),
  );
}

/** A preset chooser (its names in words) that calls `pick(name)` on a change. */
async function presetChooser(current, pick) {
  const { presets } = await loadPresets();
  const select = h(
    "select",
    { class: "preset-choice", "aria-label": t("board.preset") },
    Object.keys(presets).map((p) =>
      h("option", { value: p, selected: p === current }, label(`preset.${p}`, p)),
    ),
  );
  select.addEventListener("change", () => pick(select.value));
  return h("label", { class: "preset-pick" }, t("board.preset"), " ", select);
}

const levelName = (key) => label(`level.${key}`, key);

/** 我的段位 in one preset: the rating now, its 称号, and a chart after each rated game. */
async function ratingPanel(preset) {
  const panel = h("section", { class: "panel rating" }, h("h2", {}, t("rating.title")));
  const body = h("div", { class: "rating-body" });
  const show = async (name) => {
    let mine;
    try {
      mine = await api("GET", `/api/me/ratings?preset=${encodeURIComponent(name)}`);
    } catch (err) {
      mount(body, h("p", { class: "error" }, errorText(err)));
      return;
    }
    const now = t("rating.now", {
      rating: mine.rating,
      level: levelName(mine.level),
      games: mine.games,
    });
    mount(
      body,
      h("p", { class: "rating-now" }, now),
      mine.steps.length
        ? [
            h("h4", {}, t("rating.chart")),
            lineChart([0, ...mine.steps.map((s) => s.rating)], {
              cls: "rating-chart",
              label: t("rating.chart"),
            }),
          ]
        : h("p", { class: "empty" }, t("rating.empty")),
    );
  };
  panel.append(await presetChooser(preset, show), body);
  await show(preset);
  return panel;
}

/** `#/history`: the user's 段位 and finished games, each with a replay and its record. */
export async function historyPage(root, _params, redraw) {
  if (!session.user) {
    mount(root, h("div", { class: "lobby" }, loginBox(redraw)));
    return () => {};
  }
  let games;
  try {
    ({ games } = await api("GET", "/api/me/games"));
  } catch (err) {
    failure(root, err);
    return () => {};
  }
  const head = ["col.date", "col.table", "col.preset", "col.role", "col.place", "col.points", null];
  const list = h("div", {});
  gridPanel(list, "history", head, games.map(gameRow));
  mount(root, await ratingPanel(games[0]?.preset ?? "classic"), list);
  return () => {};
}

function roleCells(roles) {
  return ["emperor", "guard", "rebel", "solo"]
    .filter((r) => roles?.[r]?.games)
    .map((r) => `${t(`role.${r}`)} ${roles[r].wins}/${roles[r].games}`)
    .join(" · ");
}

/** `#/leaderboard/PRESET`: the 段位 ladder of a preset (classic by default), people and bot
 *  levels together: rating, 称号, games, win rate, points and wins by role. */
export async function leaderboardPage(root, params) {
  const preset = params?.id || "classic";
  let rows;
  try {
    ({ rows } = await api("GET", `/api/leaderboard?preset=${encodeURIComponent(preset)}`));
  } catch (err) {
    failure(root, err);
    return () => {};
  }
  const head = [
    "col.rank",
    "col.player",
    "col.level",
    "col.rating",
    "col.games",
    "col.win_rate",
    "col.total",
    "col.roles",
  ];
  const body = rows.map((r, i) =>
    h(
      "tr",
      { class: [session.user?.id === r.user ? "me" : "", r.bot ? "bot" : ""].join(" ").trim() },
      h("td", {}, String(i + 1)),
      h("td", {}, r.bot ? t("board.bot", { level: label(`bot.${r.bot}`, r.bot) }) : r.name),
      h("td", {}, h("span", { class: `level level-${r.level}` }, levelName(r.level))),
      h("td", { class: "num rating" }, String(r.rating)),
      h("td", { class: "num" }, String(r.games)),
      h("td", { class: "num" }, `${Math.round((r.win_rate || 0) * 100)}%`),
      h("td", { class: "num" }, r.points === null ? "–" : signed(r.points)),
      h("td", {}, roleCells(r.roles)),
    ),
  );
  const board = h("div", {});
  gridPanel(board, "leaderboard", head, body, "board");
  const chooser = await presetChooser(preset, (p) => {
    location.hash = `#/leaderboard/${p}`;
  });
  const note = h("p", { class: "note" }, t("board.note"));
  mount(root, h("div", { class: "panel board-head" }, chooser, note), board);
  return () => {};
}
