// The replay viewer (回放): a finished game step by step with every hand open.

import { api, errorText } from "./api.js";
import { cardRow } from "./cards.js";
import { h, mount } from "./dom.js";
import { t } from "./i18n.js";
import { actionWords } from "./tablelog.js";

/** The players' names, when the record has them (a game played on the server). */
let names = null;
const name = (s) => names?.[s] || t("seat", { seat: s });

function actionEl(action) {
  const words = actionWords(action);
  return words === null ? cardRow(action.split(" "), "mini") : h("span", { class: "words" }, words);
}

/** Role badges: the step's public view, and the guard from the result once roles are set. */
function badges(v, result, s) {
  const out = [];
  const settled = ["poll", "play", "over"].includes(v.phase);
  if (v.emperor === s) {
    out.push(["emperor", t("role.emperor")]);
    if (v.solo || (settled && result?.guard === null))
      out.push(["solo", t(v.solo === "open" || result?.open_solo ? "solo.open" : "solo.dark")]);
  } else if (settled && result && s === result.guard) out.push(["guard", t("role.guard")]);
  else if (settled) out.push(["rebel", t("role.rebel")]);
  const place = v.places.indexOf(s);
  if (place >= 0) out.push([`place p${place + 1}`, t(`place.${place + 1}`)]);
  return out.map(([cls, text]) => h("span", { class: `badge ${cls}` }, text));
}

function seatPanel(step, result, s) {
  const v = step.view;
  const mine = v.trick.filter((a) => a.seat === s);
  const last = mine.length ? mine[mine.length - 1].action : null;
  return h(
    "div",
    { class: `rseat${v.turn === s ? " turn" : ""}`, "data-seat": s },
    h(
      "div",
      { class: "rseat-head" },
      h("strong", {}, name(s)),
      badges(v, result, s),
      h("span", { class: "count" }, t("seat.cards", { n: step.hands[s].length })),
      last ? h("span", { class: "last" }, actionEl(last)) : null,
    ),
    cardRow(step.hands[s], "mini open-hand"),
  );
}

/** `#/replay/ID`: prev / next / a slider (and ← →) over the game's steps. */
export async function replayPage(root, { id }) {
  let data;
  try {
    data = await api("GET", `/api/games/${id}/replay`);
  } catch (err) {
    mount(root, h("div", { class: "panel error" }, errorText(err)));
    return () => {};
  }
  const { steps, record } = data;
  names = record.match?.players ?? null;
  const result = record.result;
  let at = 0;
  const label = h("span", { class: "step-label" });
  const slider = h("input", {
    type: "range",
    min: 0,
    max: steps.length - 1,
    value: 0,
    "aria-label": t("replay.step", { n: 1, total: steps.length }),
  });
  const body = h("div", { class: "replay-body" });
  const go = (i) => {
    at = Math.max(0, Math.min(steps.length - 1, i));
    draw();
  };
  const draw = () => {
    const step = steps[at];
    const v = step.view;
    slider.value = String(at);
    label.textContent = t("replay.step", { n: at + 1, total: steps.length });
    const did = step.action
      ? h(
          "div",
          { class: "did" },
          h("strong", {}, `${name(step.action.seat)}：`),
          actionEl(step.action.action),
        )
      : h("div", { class: "did" }, t("replay.start"));
    mount(
      body,
      h(
        "div",
        { class: "replay-centre" },
        did,
        h(
          "div",
          { class: "phase" },
          t(`phase.${v.phase}`),
          v.called ? ` · ${t("st.called")} ` : "",
          v.called ? cardRow([v.called], "tiny-row") : null,
        ),
        v.pile.length
          ? h("div", { class: "pile" }, `${t("pile")}：`, cardRow(v.pile, "mini"))
          : null,
        v.lead
          ? h(
              "div",
              { class: "lead" },
              t("lead", { name: name(v.lead.seat) }),
              cardRow(v.lead.cards, "mini"),
            )
          : null,
      ),
      h(
        "div",
        { class: "replay-seats" },
        [0, 1, 2, 3, 4].map((s) => seatPanel(step, result, s)),
      ),
    );
  };
  slider.addEventListener("input", () => go(Number(slider.value)));
  const keys = (ev) => {
    if (ev.target.closest?.("input, select, textarea")) return;
    if (ev.key === "ArrowLeft") go(at - 1);
    else if (ev.key === "ArrowRight") go(at + 1);
    else return;
    ev.preventDefault();
  };
  document.addEventListener("keydown", keys);
  mount(
    root,
    h(
      "section",
      { class: "panel replay" },
      h(
        "div",
        { class: "panel-head" },
        h("h2", {}, t("replay.heading", { id })),
        h(
          "a",
          { class: "button", href: `/api/games/${id}/record`, download: `baohuang-${id}.json` },
          t("btn.download"),
        ),
      ),
      h(
        "div",
        { class: "controls" },
        h("button", { class: "prev", onclick: () => go(at - 1) }, `◀ ${t("replay.prev")}`),
        slider,
        h("button", { class: "next", onclick: () => go(at + 1) }, `${t("replay.next")} ▶`),
        label,
      ),
      h("p", { class: "note" }, t("replay.keys")),
      body,
    ),
  );
  draw();
  return () => document.removeEventListener("keydown", keys);
}
