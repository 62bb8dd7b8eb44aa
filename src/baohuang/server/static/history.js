// The history page (我的战绩: /api/me/games) and the leaderboard (排行榜: /api/leaderboard).

import { api, errorText, session } from "./api.js";
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

/** `#/history`: the user's finished games, each with a replay and its record. */
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
  gridPanel(root, "history", head, games.map(gameRow));
  return () => {};
}

function roleCells(roles) {
  return ["emperor", "guard", "rebel", "solo"]
    .filter((r) => roles?.[r]?.games)
    .map((r) => `${t(`role.${r}`)} ${roles[r].wins}/${roles[r].games}`)
    .join(" · ");
}

/** `#/leaderboard`: points, games, win rate and wins by role. */
export async function leaderboardPage(root) {
  let rows;
  try {
    ({ rows } = await api("GET", "/api/leaderboard"));
  } catch (err) {
    failure(root, err);
    return () => {};
  }
  const head = ["col.rank", "col.player", "col.total", "col.games", "col.win_rate", "col.roles"];
  const body = rows.map((r, i) =>
    h(
      "tr",
      { class: session.user?.id === r.user ? "me" : "" },
      h("td", {}, String(i + 1)),
      h("td", {}, r.name),
      h("td", { class: "num" }, signed(r.points)),
      h("td", { class: "num" }, String(r.games)),
      h("td", { class: "num" }, `${Math.round((r.win_rate || 0) * 100)}%`),
      h("td", {}, roleCells(r.roles)),
    ),
  );
  gridPanel(root, "leaderboard", head, body, "board");
  return () => {};
}
