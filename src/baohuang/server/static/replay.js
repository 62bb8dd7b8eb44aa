// The replay viewer (回放): a finished game step by step with every hand open, from the hands
// as dealt (before the tribute, R12 进贡: each card paid, then the cards handed over) to the
// last action, where the results (R10 结算) are shown as the table's results window shows them.

import { analysisPanel } from "./analysis.js";
import { api, errorText, session } from "./api.js";
import { cardName, cardRow } from "./cards.js";
import { h, mount } from "./dom.js";
import { t } from "./i18n.js";
import { gameTable, resultsTitle, scoringNotes } from "./results.js";
import { actionWords, render, said } from "./tablelog.js";

/** The players' names, when the record has them (a game played on the server); its bots. */
let names = null;
let bots = null;
const name = (s) =>
  bots?.[s] ? t("bot.name", { seat: s + 1 }) : names?.[s] || t("seat", { seat: s + 1 });
/** The step last shown, so that a language switch (which draws the page again) keeps it. */
let kept = { id: null, at: 0 };

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
  if (v.escaped === s) out.push(["escaped", t("role.escaped")]);
  const place = v.places.indexOf(s);
  if (place >= 0) out.push([`place p${place + 1}`, t(`place.${place + 1}`)]);
  return out.map(([cls, text]) => h("span", { class: `badge ${cls}` }, text));
}

/** What seat `s` paid or received at a tribute step (R12, R6.8), for its panel. */
function tributeNote(step, s) {
  const notes = [];
  for (const e of step.events) {
    if (e.kind === "tribute_paid" && e.seat === s && e.card)
      notes.push(t("replay.paid", { card: cardName(e.card) }));
    if (e.kind === "tribute") {
      const got = (e.cards || []).filter((c) => c.to === s).map((c) => cardName(c.card));
      if (got.length) notes.push(t("replay.got", { cards: got.join(" ") }));
    }
  }
  return notes.length ? h("span", { class: "tribute-note" }, notes.join(t("sep.clause"))) : null;
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
      tributeNote(step, s),
    ),
    cardRow(step.hands[s], "mini open-hand"),
  );
}

/** What happened at step `at`: the action, the events told (R12 进贡, a void deal), or where
 * the game stands (after the deal, after the tribute). */
function didEl(step, at) {
  const lines = said(step.events, step.says).map(([key, fields]) => render(key, fields, name));
  const { action } = step;
  // a tribute card paid by choice is told by its event (who paid what)
  const shown = action && !(action.action.startsWith("tribute ") && lines.length);
  const head = shown
    ? [h("strong", {}, `${name(action.seat)}${t("sep.label")}`), actionEl(action.action)]
    : lines.length
      ? null
      : t(at === 0 ? "replay.start" : "replay.after_tribute"); // the tribute steps came first
  const dealt = at === 0 && step.view.phase === "tribute" ? t("replay.dealt") : null;
  return h(
    "div",
    { class: `did${step.events.length ? " told" : ""}` },
    dealt ? h("span", { class: "when" }, dealt) : null,
    head ? h("span", { class: "what" }, head) : null,
    lines.map((line) => h("span", { class: "told-line" }, line)),
  );
}

/** The results (R10, R10.4, R13) as the live results window words them. */
function resultPanel(over) {
  return h(
    "div",
    { class: "replay-result", role: "region", "aria-label": t("replay.result") },
    h("h3", {}, resultsTitle(over)),
    scoringNotes(over, name),
    gameTable(over, name),
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
  bots = record.match?.bots ?? null;
  const result = record.result;
  const over = data.result ?? null;
  let at = kept.id === id ? Math.min(kept.at, steps.length - 1) : 0;
  const label = h("span", { class: "step-label" });
  const slider = h("input", {
    type: "range",
    min: 0,
    max: steps.length - 1,
    value: at,
    "aria-label": t("replay.step", { n: 1, total: steps.length }),
  });
  const body = h("div", { class: "replay-body" });
  const go = (i) => {
    at = Math.max(0, Math.min(steps.length - 1, i));
    draw();
  };
  const draw = () => {
    kept = { id, at };
    const step = steps[at];
    const v = step.view;
    slider.value = String(at);
    label.textContent = t("replay.step", { n: at + 1, total: steps.length });
    const last = at === steps.length - 1;
    mount(
      body,
      h(
        "div",
        { class: "replay-centre", "data-phase": v.phase },
        didEl(step, at),
        h(
          "div",
          { class: "phase" },
          t(`phase.${v.phase}`),
          v.called ? ` · ${t("st.called")} ` : "",
          v.called ? cardRow([v.called], "tiny-row") : null,
        ),
        v.pile.length
          ? h("div", { class: "pile" }, `${t("pile")}${t("sep.label")}`, cardRow(v.pile, "mini"))
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
      last && over ? resultPanel(over) : null,
      h(
        "div",
        { class: "replay-seats" },
        [0, 1, 2, 3, 4].map((s) => seatPanel(step, result, s)),
      ),
    );
  };
  slider.addEventListener("input", () => go(Number(slider.value)));
  // 复盘: the viewer's own seat first when they played this game; a decision's row goes to
  // the step of its action (each recorded action has one step that names it).
  const stepOf = steps.flatMap((step, i) => (step.action ? [i] : []));
  const mine = record.match?.users?.indexOf(session.user?.id) ?? -1;
  const analysis = analysisPanel(id, Math.max(0, mine), name, (index) => go(stepOf[index]));
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
      analysis.panel,
    ),
  );
  draw();
  return () => {
    document.removeEventListener("keydown", keys);
    analysis.stop();
  };
}
