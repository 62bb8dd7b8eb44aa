// The rules page (规则, #/rules/PRESET): a preset's rules in words, section by section, as
// `baohuang rules` says them. The words are made once, in Python (GET /api/rules, from
// src/baohuang/engine/describe.py), in the page's language; this page only lays them out. A
// table's options ride in the hash: #/rules/classic?roast=true.

import { api } from "./api.js";
import { h, mount } from "./dom.js";
import { lang, t } from "./i18n.js";

/** The hash of the rules of `preset` with `options` ({name: value}, a table's). */
export function rulesHash(preset, options = {}) {
  const query = new URLSearchParams(
    Object.entries(options || {}).map(([name, value]) => [name, String(value)]),
  ).toString();
  return `#/rules/${encodeURIComponent(preset)}${query ? `?${query}` : ""}`;
}

/** A link (`label`, 规则 by default) to the rules of `preset` with `options` (each a value,
 * or a function giving the one chosen now), opened in a new tab so that the page it is on
 * (the 建桌 form, a table) stays as it is. */
export function rulesLink(preset, options = {}, cls = "", label = t("nav.rules")) {
  const now = (value) => (typeof value === "function" ? value() : value);
  const href = () => rulesHash(now(preset), now(options));
  const link = h(
    "a",
    { class: `rules-link ${cls}`.trim(), href: href(), target: "_blank", rel: "noopener" },
    label,
  );
  const refresh = () => link.setAttribute("href", href());
  for (const kind of ["pointerdown", "focus", "click"]) link.addEventListener(kind, refresh);
  return link;
}

/** The page for `#/rules/PRESET` (the default preset for `#/rules`); returns its cleanup. */
export async function rulesPage(root, { id }) {
  const preset = id || "classic";
  const asked = new URLSearchParams({ preset, lang });
  const options = new URLSearchParams(location.hash.split("?")[1] || "");
  const given = {};
  for (const [name, value] of options) {
    asked.append("option", `${name}=${value}`);
    given[name] = value;
  }
  const data = await api("GET", `/api/rules?${asked}`);
  mount(
    root,
    h(
      "div",
      { class: "panel rules-page", "data-preset": data.preset },
      h("h1", {}, data.title),
      h(
        "nav",
        { class: "rules-presets", "aria-label": t("nav.rules") },
        data.presets.map(({ key, name }) =>
          h(
            "a",
            {
              href: rulesHash(key, key === data.preset ? given : {}),
              class: key === data.preset ? "on" : "",
              "data-preset": key,
            },
            name,
          ),
        ),
      ),
      h("p", { class: "rules-summary" }, data.summary),
      data.sections.map(({ id: section, heading, lines }) =>
        h(
          "section",
          { class: "rules-section", "data-section": section },
          h("h2", {}, heading),
          h(
            "ul",
            {},
            lines.map((line) => h("li", {}, line)),
          ),
        ),
      ),
    ),
  );
  return () => {};
}
