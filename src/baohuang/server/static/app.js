// The page shell: header, language switch and the hash router (#/lobby, #/table/ID,
// #/room/CODE, #/history, #/replay/ID, #/leaderboard/PRESET, #/rules/PRESET), so that a reload
// returns to the same page.

import { api, errorText, loadMe, session } from "./api.js";
import { keepClicks } from "./clicks.js";
import { h, mount } from "./dom.js";
import { lang, loadText, setLang, t } from "./i18n.js";
import { historyPage, leaderboardPage } from "./history.js";
import { lobbyPage, roomPage } from "./lobby.js";
import { replayPage } from "./replay.js";
import { rulesPage } from "./rules.js";
import { tablePage } from "./table.js";

const ROUTES = [
  [/^#\/lobby$/, "lobby", lobbyPage],
  [/^#\/table\/([\w-]+)$/, "lobby", tablePage],
  [/^#\/room\/([\w-]+)$/, "lobby", roomPage],
  [/^#\/history$/, "history", historyPage],
  [/^#\/replay\/([\w-]+)$/, "history", replayPage],
  [/^#\/leaderboard(?:\/([\w-]+))?$/, "leaderboard", leaderboardPage],
  [/^#\/rules(?:\/([\w-]+))?(?:\?[^#]*)?$/, "rules", rulesPage],
];

const root = document.getElementById("app");
let cleanup = null;
let visit = 0;

function header(section) {
  const link = (name) =>
    h("a", { href: `#/${name}`, class: section === name ? "on" : "" }, t(`nav.${name}`));
  const logout = async () => {
    await api("POST", "/api/logout").catch(() => null);
    session.user = null;
    route();
  };
  mount(
    document.getElementById("top"),
    h("a", { class: "brand", href: "#/lobby" }, h("span", { class: "logo" }, "♛"), t("title")),
    h("nav", {}, link("lobby"), link("history"), link("leaderboard"), link("rules")),
    h(
      "div",
      { class: "who" },
      session.user
        ? [
            h(
              "span",
              { class: "user" },
              session.user.name,
              session.user.guest ? t("hello.guest") : "",
            ),
            h("button", { class: "small logout", onclick: logout }, t("logout")),
          ]
        : null,
      h("button", { class: "small lang", onclick: () => switchLang() }, t("lang.switch")),
    ),
  );
}

function switchLang() {
  setLang(lang === "zh" ? "en" : "zh");
  document.title = `${t("title")}`;
  route();
}

/** Show the page the hash names; each page returns its cleanup. */
async function route() {
  visit += 1;
  const mine = visit;
  cleanup?.();
  cleanup = null;
  const hash = location.hash || "#/lobby";
  const found = ROUTES.map(([re, section, page]) => [hash.match(re), section, page]).find(
    ([m]) => m,
  );
  if (!found) {
    location.replace("#/lobby");
    return;
  }
  const [match, section, page] = found;
  header(section);
  mount(root, h("div", { class: "panel" }, t("loading")));
  try {
    const done = await page(root, { id: match[1] }, route);
    if (mine === visit) cleanup = done;
    else done();
  } catch (err) {
    if (mine === visit) mount(root, h("div", { class: "panel error" }, errorText(err)));
  }
}

// The words first (the catalog, /api/text), then the first page.
await Promise.all([loadText(), loadMe()]);
setLang(lang);
document.title = t("title");
keepClicks();
window.addEventListener("hashchange", route);
route();
