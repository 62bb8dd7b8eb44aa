// Drawing the table page from its state (table.js): seats, the centre, the hand, dialogs.

import { session } from "./api.js";
import { BIG, RANKS, SMALL, cardEl, cardName, cardRow, rankLabel } from "./cards.js";
import { h, mount } from "./dom.js";
import { pick, t } from "./i18n.js";
import { tableName } from "./lobby.js";
import { resultsWindow } from "./results.js";
import { roomBar } from "./room.js";
import { keptTurn, roundList, roundSummary, roundsButton, roundsPopover } from "./rounds.js";
import { rulesLink } from "./rules.js";
import { render } from "./tablelog.js";
import { soundButton } from "./sound.js";

/** Seats on screen, counted from the bottom (you) going round the table: 下家 on the right. */
const POSITIONS = ["bottom", "right", "top-right", "top-left", "left"];

export function renderTable(p) {
  if (!p.info) {
    mount(p.root, h("div", { class: "panel" }, t("loading")));
    return;
  }
  const base = p.seat ?? 0;
  mount(
    p.root,
    h(
      "div",
      { class: "table-page", "data-status": p.info.status },
      topBar(p),
      p.online ? null : h("div", { class: "offline-bar", role: "alert" }, t("conn.lost")),
      h(
        "div",
        { class: "felt" },
        [0, 1, 2, 3, 4].map((k) => seatBox(p, (base + k) % 5, k)),
        centre(p),
      ),
      p.seat !== null && p.view?.hand ? mine(p) : null,
      side(p),
      p.modal ? resultsWindow(p) : null,
    ),
  );
}

// ------------------------------------------------------------ the bar on top

function topBar(p) {
  const { info } = p;
  const mine = p.seat === null ? null : info.seats[p.seat];
  const playing = info.status === "playing";
  const toggle = (cls, on, label, onclick) =>
    h(
      "button",
      { class: `${cls} toggle${on ? " on" : ""}`, "aria-pressed": String(on), onclick },
      label,
    );
  return h(
    "div",
    { class: "topbar" },
    h(
      "div",
      { class: "table-title" },
      h("strong", { title: `#${info.id}` }, tableName(info)),
      rulesLink(
        info.config.preset,
        info.config.options,
        "tag",
        `${t(`preset.${info.config.preset}`)} · ${t("nav.rules")}`,
      ),
      info.game === null
        ? null
        : h(
            "span",
            { class: "tag" },
            t("game.header", { n: info.game + 1, total: info.config.games }),
          ),
      h("span", { class: `tag status ${info.status}` }, t(`status.${info.status}`)),
      info.watching ? h("span", { class: "tag" }, `${t("col.watching")} ${info.watching}`) : null,
      p.seat === null ? h("span", { class: "tag" }, t("watching")) : null,
      roomBar(p),
    ),
    h(
      "div",
      { class: "table-buttons" },
      mine && info.status === "waiting"
        ? h(
            "button",
            {
              class: `ready${mine.ready ? "" : " primary"}`,
              onclick: () => p.send("ready", { on: !mine.ready }),
            },
            t(mine.ready ? "btn.unready" : "btn.ready"),
          )
        : null,
      mine && playing
        ? toggle("auto", mine.auto, t("btn.auto"), () => p.send("auto", { on: !mine.auto }))
        : null,
      info.config.counter
        ? toggle("counter", p.showCounter, t("btn.counter"), () => p.toggleCounter())
        : null,
      soundButton(p),
      mine ? signalMenu(p) : null,
      info.results.length
        ? h("button", { class: "scores", onclick: () => p.openResults() }, t("btn.results"))
        : null,
      mine ? h("button", { class: "leave", onclick: () => p.leave() }, t("btn.leave")) : null,
      h("a", { class: "button", href: "#/lobby" }, t("btn.lobby")),
    ),
  );
}

function signalMenu(p) {
  const open = () => {
    p.menu = !p.menu;
    p.render();
  };
  const say = (id) => {
    p.menu = false;
    p.send("signal", { signal: id });
    p.render();
  };
  return h(
    "div",
    { class: "menu-wrap" },
    h(
      "button",
      { class: "signal", "aria-expanded": String(p.menu), onclick: open },
      t("btn.signal"),
    ),
    p.menu
      ? h(
          "div",
          { class: "menu", role: "menu" },
          Object.entries(p.signals).map(([id, [zh, en]]) =>
            h(
              "button",
              { role: "menuitem", "data-signal": id, onclick: () => say(id) },
              pick(zh, en),
            ),
          ),
        )
      : null,
  );
}

// ------------------------------------------------------------ seats

/** What this seat may know of `s`'s role (R14): from its own view only. */
function roleBadges(p, s) {
  const v = p.view;
  if (!v) return [];
  const out = [];
  if (v.escaped === s) out.push(["escaped", t("role.escaped")]);
  if (v.phase === "candidate" && v.candidate === s) out.push(["candidate", t("role.candidate")]);
  if (v.emperor === s) {
    out.push(["emperor", t("role.emperor")]);
    if (v.solo) out.push(["solo", t(`solo.${v.solo}`)]);
  } else if (v.guard === s) {
    out.push(["guard", t("role.guard")]);
  } else if (
    v.emperor !== null &&
    (s === p.seat ? v.role === "rebel" : v.guard !== null || v.solo)
  ) {
    out.push(["rebel", t("role.rebel")]);
  }
  return out.map(([cls, text]) => h("span", { class: `badge ${cls}` }, text));
}

function lastAction(v, s) {
  const mineNow = v.trick.filter((a) => a.seat === s);
  if (!mineNow.length) return null;
  const { action } = mineNow[mineNow.length - 1];
  return action === "pass"
    ? h("span", { class: "passed" }, t("act.pass"))
    : cardRow(action.split(" "), "mini");
}

function seatBox(p, s, k) {
  const { info, view: v } = p;
  const seat = info.seats[s];
  const waiting = info.status === "waiting";
  // R14: no seat is marked as thinking in a sealed poll (明保, 造反): all answer at once.
  const turn = v && v.turn === s && v.phase !== "over" && !v.asked?.length;
  const place = v ? v.places.indexOf(s) : -1;
  const left = p.clock?.seat === s ? p.secondsLeft() : null;
  const relation =
    p.seat !== null && k === 1
      ? t("seat.xiajia")
      : p.seat !== null && k === 4
        ? t("seat.shangjia")
        : null;
  const cls = [
    "seat",
    POSITIONS[k],
    turn && "turn",
    s === p.seat && "me",
    !seat && "empty",
    place >= 0 && "out",
    left !== null && "timed",
  ];
  return h(
    "div",
    { class: cls.filter(Boolean).join(" "), "data-seat": s },
    h(
      "div",
      { class: "seat-head" },
      h("span", { class: "name" }, seat ? p.seatName(s) : t("seat.empty")),
      seat?.bot
        ? h("span", { class: "tag bot", title: t(`bot.${seat.bot}`) }, t("seat.bot"))
        : null,
      seat?.auto ? h("span", { class: "tag auto" }, t("seat.auto")) : null,
      seat && seat.user !== null && !seat.connected
        ? h("span", { class: "tag offline" }, t("seat.offline"))
        : null,
      info.status !== "playing" && seat?.ready
        ? h("span", { class: "tag ready" }, t("seat.ready"))
        : null,
    ),
    h(
      "div",
      { class: "seat-info" },
      h("span", { class: "seat-sub" }, t("seat", { seat: s + 1 }), relation ? ` · ${relation}` : ""),
      v
        ? h(
            "span",
            { class: "count" },
            h("span", { class: "back" }),
            t("seat.cards", { n: v.counts[s] }),
          )
        : null,
    ),
    h(
      "div",
      { class: "badges" },
      roleBadges(p, s),
      place >= 0
        ? h("span", { class: `badge place p${place + 1}` }, t(`place.${place + 1}`))
        : null,
      (p.decl[s] || []).map((word) => h("span", { class: "badge decl" }, word)),
    ),
    v ? h("div", { class: "last" }, lastAction(v, s) ?? keptTurn(p, s)) : null,
    left === null
      ? null
      : showClock(
          h("div", {
            class: "clock",
            title: t("clock"),
            role: "timer",
            "data-total": p.clock.timer || info.config.timer || left,
          }),
          left,
        ),
    p.bubbles[s] ? h("div", { class: "bubble" }, p.bubbles[s].text) : null,
    waiting ? seatButtons(p, s, seat) : null,
  );
}

/**
 * The turn countdown's seconds in `el`, red for the last five; returns `el`. Its ring (CSS
 * --frac) empties from the full time in `data-total` to none.
 */
export function showClock(el, left) {
  const total = Number(el.dataset.total) || left || 1;
  el.textContent = String(left);
  el.classList.toggle("low", left <= 5);
  el.style.setProperty("--frac", String(Math.max(0, Math.min(1, left / total))));
  return el;
}

/** A waiting seat's buttons, only those this page may use: 坐这里 for a spectator at an empty
 *  seat; 加机器人 for a seated person; 请走机器人 for the table's creator (anyone seated when
 *  the server does not know who made it). */
function seatButtons(p, s, seat) {
  const seated = p.seat !== null;
  const creator = p.info.creator;
  if (seat?.bot) {
    if (!seated || (creator !== null && creator !== session.user?.id)) return null;
    return h(
      "button",
      { class: "remove-bot small", onclick: () => p.send("remove_bot", { seat: s }) },
      t("btn.remove_bot"),
    );
  }
  if (seat) return null;
  return h(
    "div",
    { class: "seat-buttons" },
    seated
      ? h(
          "button",
          { class: "add-bot small", onclick: () => p.send("add_bot", { seat: s }) },
          t("btn.add_bot"),
        )
      : h("button", { class: "sit-here small primary", onclick: () => p.sit(s) }, t("btn.sit_here")),
  );
}

// ------------------------------------------------------------ the centre of the table

function centre(p) {
  const { view: v, info } = p;
  if (!v) {
    const key =
      info.status === "waiting"
        ? p.seat === null
          ? "wait.sit"
          : "wait.ready"
        : info.status !== "finished"
          ? "wait.next"
          : p.seat === null
            ? "wait.over"
            : "wait.finished";
    return h("div", { class: "centre" }, h("p", { class: "wait" }, t(key)));
  }
  const phase =
    v.phase === "poll" && v.poll
      ? t("phase.poll.of", { poll: t(`poll.${v.poll}`) })
      : t(`phase.${v.phase}`);
  const sealed = v.asked?.length > 0; // R14: everyone asked answers at once
  const turnText = p.myTurn()
    ? t("turn.you")
    : sealed
      ? v.answer
        ? null // the dialog's place says it (answered)
        : t("poll.waiting")
      : v.turn === null
        ? null
        : t("turn.of", { name: p.seatName(v.turn) });
  const flags = [
    v.called
      ? h("span", { class: "badge called" }, `${t("st.called")} ${cardName(v.called)}`)
      : null,
    v.open_guard ? h("span", { class: "badge flag" }, t("flag.open_guard")) : null,
    v.rebellion ? h("span", { class: "badge flag" }, t("flag.rebellion")) : null,
    v.kicked ? h("span", { class: "badge flag" }, t("flag.kicked")) : null,
  ];
  return h(
    "div",
    { class: "centre" },
    h(
      "div",
      { class: "phase" },
      h("span", { class: "phase-name" }, phase),
      turnText ? h("span", { class: "turn-text" }, turnText) : null,
      sealed ? pollClock(p) : null,
    ),
    h("div", { class: "flags" }, flags),
    v.phase === "candidate" && v.pile.length
      ? h("div", { class: "pile" }, `${t("pile")}${t("sep.label")}`, cardRow(v.pile, "mini"))
      : null,
    v.tribute_due.length
      ? h(
          "div",
          { class: "tribute" },
          t("tribute.due", { seats: v.tribute_due.map((s) => p.seatName(s)).join(t("sep.list")) }),
        )
      : null,
    v.phase === "play" || v.phase === "over" ? currentPlay(p) : null,
    askedNow(p),
    roundsPopover(p),
  );
}

/** The play area: the play to beat and the round so far; between rounds, the finished round
 * (dimmed, 上一轮) until the new leader plays; the 上一轮 button. */
function currentPlay(p) {
  const v = p.view;
  const kept = p.rounds?.kept(v);
  if (kept) return keptPlay(p, kept);
  if (!v.lead && v.turn === null) return null;
  const lead = v.lead
    ? h(
        "div",
        { class: "lead" },
        h("div", { class: "lead-who" }, t("lead", { name: p.seatName(v.lead.seat) })),
        cardRow(v.lead.cards, "lead-cards"),
      )
    : h(
        "div",
        { class: "lead" },
        h("div", { class: "lead-who" }, t("lead.none", { name: p.seatName(v.turn) })),
      );
  const history = v.trick
    .slice(-8)
    .map(({ seat, action }) =>
      h(
        "li",
        {},
        h("span", { class: "who" }, p.seatName(seat)),
        action === "pass"
          ? h("span", { class: "passed" }, t("act.pass"))
          : cardRow(action.split(" "), "tiny-row"),
      ),
    );
  return h(
    "div",
    { class: "play-area" },
    lead,
    history.length ? h("ol", { class: "trick", "aria-label": t("trick") }, history) : null,
    roundsButton(p),
  );
}

/** The finished round still on show: its top play, its turns, who leads next. */
function keptPlay(p, round) {
  const v = p.view;
  const top = [...round.turns].reverse().find((turn) => !turn.pass);
  return h(
    "div",
    { class: "play-area kept-round", "data-kept": "1" },
    h(
      "div",
      { class: "lead kept" },
      h(
        "div",
        { class: "lead-who" },
        h("span", { class: "kept-tag" }, t("rounds.last")),
        roundSummary(p, round),
      ),
      top ? cardRow(top.cards, "lead-cards kept-cards") : null,
    ),
    roundList(p, { ...round, turns: round.turns.slice(-8) }, "trick kept"),
    v.turn === null
      ? null
      : h("div", { class: "lead-next" }, t("lead.none", { name: p.seatName(v.turn) })),
    roundsButton(p),
  );
}

// ------------------------------------------------------------ role-phase dialogs (R8–R12)

/** The words on an answer, from the server's prompt: a card named also shows its face. */
function answerLabel(p, action) {
  const [key, fields] = p.prompt.labels[action];
  const words = render(key, fields, (s) => p.seatName(s));
  return fields.card ? [words, cardEl(fields.card, { class: "tiny" })] : words;
}

/** The role-phase dialog when this seat decides, or its kept answer to a sealed poll. */
function askedNow(p) {
  const v = p.view;
  if (!p.prompt) return null; // a view without its prompt (a page cached before it had one)
  if (p.myTurn() && v.phase !== "play") return dialog(p);
  return v.answer ? answered(p) : null;
}

/** A role-phase question (R8–R12) and its answers, as the server's prompt says. */
function dialog(p) {
  const v = p.view;
  const ask = t(p.prompt.ask);
  return h(
    "div",
    { class: "dialog", role: "dialog", "aria-label": ask },
    h("p", { class: "ask" }, ask),
    h(
      "div",
      { class: "choices" },
      p.prompt.answers.map((a) => {
        const open = v.legal.includes(a);
        return h(
          "button",
          {
            class: `choice${a === p.suggested ? " suggested" : ""}`,
            "data-action": a,
            disabled: !open,
            title: open ? null : t("poll.not_yours"),
            onclick: () => p.act(a),
          },
          answerLabel(p, a),
        );
      }),
    ),
    h("button", { class: "hint small", onclick: () => p.hint() }, t("btn.hint")),
  );
}

/** R14: this seat has answered the sealed poll; the answers are told when all are in. */
function answered(p) {
  const v = p.view;
  const ask = t(p.prompt.ask);
  return h(
    "div",
    { class: "poll-answered", role: "status", "aria-label": ask },
    h("p", { class: "ask" }, ask),
    h("p", { class: "waiting" }, t("poll.answered")),
    h(
      "p",
      { class: "mine-answer" },
      t("poll.mine", { answer: answerLabel(p, v.answer) }),
    ),
  );
}

/** A sealed poll's countdown, one for every seat asked (R14): on no seat, in the centre. */
function pollClock(p) {
  const left = p.clock && p.clock.seat === null ? p.secondsLeft() : null;
  if (left === null) return null;
  const el = h("span", {
    class: "clock poll-clock",
    title: t("poll.clock"),
    role: "timer",
    "data-total": p.clock.timer || p.info.config.timer || left,
  });
  return showClock(el, left);
}

// ------------------------------------------------------------ your hand and buttons

function mine(p) {
  const hand = p.hand();
  const sel = p.selection();
  const groups = [];
  hand.forEach((card, i) => {
    const last = groups[groups.length - 1];
    if (last && last.rank === card[0]) last.items.push(i);
    else groups.push({ rank: card[0], items: [i] });
  });
  const cardOf = (i) => {
    const cls = [p.selected.has(i) && "selected", i === p.cursor && "cursor"]
      .filter(Boolean)
      .join(" ");
    return cardEl(hand[i], {
      class: cls,
      "data-i": i,
      onclick: () => p.toggle(i),
      ondblclick: () => p.selectRank(i),
    });
  };
  // With nothing selected: how to pick cards, by keys on a desktop, by taps on a phone (CSS).
  let note = [
    h("span", { class: "keys-help" }, t("hand.keys")),
    h("span", { class: "touch-help" }, t("hand.touch")),
  ];
  const onAuto = p.info?.seats?.[p.seat]?.auto;
  if (onAuto) {
    // 托管 can't be missed: where the selection is told, and one click takes the seat back.
    note = h(
      "span",
      { class: "auto-banner", role: "status" },
      t("auto.banner"),
      h("button", { class: "small cancel-auto", onclick: () => p.send("auto", { on: false }) }, t("auto.cancel")),
    );
  } else if (sel.cards.length) {
    const what = sel.play ?? t("hand.not_a_play");
    note =
      t("hand.selected", { n: sel.cards.length, play: what }) +
      (sel.play && !sel.legal && p.view.phase === "play" ? ` · ${t("hand.not_legal")}` : "");
  }
  const kbd = (key) => h("kbd", {}, key);
  // The hand's overlap comes from its width (style.css): --n cards in --g rank groups.
  const handEl = h(
    "div",
    { class: "hand", "aria-label": t("hand.title", { n: hand.length }) },
    groups.map((g) => h("div", { class: "group", "data-rank": g.rank }, g.items.map(cardOf))),
  );
  handEl.style.setProperty("--n", String(Math.max(1, hand.length)));
  handEl.style.setProperty("--g", String(Math.max(1, groups.length)));
  return h(
    "div",
    { class: `mine${p.myTurn() ? " my-turn" : ""}` },
    h(
      "div",
      { class: "actions" },
      h("span", { class: "selection", "aria-live": "polite" }, note),
      h(
        "label",
        { class: "auto-pass", title: t("hand.auto_pass.title") },
        h("input", {
          type: "checkbox",
          checked: p.autoPass,
          onchange: () => p.toggleAutoPass(),
        }),
        t("hand.auto_pass"),
      ),
      h(
        "button",
        {
          id: "btn-clear",
          class: "small",
          disabled: !sel.cards.length,
          onclick: () => {
            p.selected.clear();
            p.render();
          },
        },
        t("btn.clear"),
      ),
      h(
        "button",
        { id: "btn-hint", disabled: !p.myTurn(), onclick: () => p.hint() },
        t("btn.hint"),
        kbd("H"),
      ),
      h(
        "button",
        {
          id: "btn-pass",
          class: p.suggested === "pass" ? "suggested" : "",
          disabled: !p.canPass(),
          onclick: () => p.pass(),
        },
        // 要不起: nothing in hand beats the play (pass is the only legal action)
        t(p.myTurn() && p.view?.phase === "play" && p.view.legal.length === 1 ? "btn.cannot" : "btn.pass"),
        kbd("P"),
      ),
      h(
        "button",
        { id: "btn-play", class: "primary", disabled: !sel.legal, onclick: () => p.play() },
        t("btn.play"),
        kbd("⏎"),
      ),
    ),
    handEl,
  );
}

// ------------------------------------------------------------ the side: 记牌器 and the log

function counter(p) {
  const v = p.view;
  const pack = p.info.pack; // R7: cards per rank, from the server
  const held = new Array(RANKS.length).fill(0);
  for (const card of v.hand || []) held[RANKS.indexOf(card[0])] += 1;
  const cells = [];
  for (let r = BIG; r >= 0; r -= 1) {
    if (!pack[RANKS[r]]) continue;
    const left = pack[RANKS[r]] - (v.played[RANKS[r]] || 0) - held[r];
    const label = r === BIG ? t("counter.big") : r === SMALL ? t("counter.small") : rankLabel(r);
    cells.push(
      h(
        "div",
        { class: `cell${left ? "" : " gone"}`, "data-rank": RANKS[r] },
        h("span", { class: "r" }, label),
        h("span", { class: "n" }, String(left)),
      ),
    );
  }
  return h(
    "section",
    { class: "counter", "aria-label": t("counter.title") },
    h("h3", { title: t("counter.help") }, t("counter.title")),
    h("div", { class: "cells" }, cells),
  );
}

/** 记牌器 and the log: a column on a desktop; on a phone a strip over the felt whose log shows
 * its newest line until opened (p.logOpen). */
function side(p) {
  const toggleLog = () => {
    p.logOpen = !p.logOpen;
    p.render();
  };
  return h(
    "aside",
    { class: `side${p.logOpen ? " log-open" : ""}` },
    p.info?.config.counter && p.showCounter && p.view ? counter(p) : null,
    h(
      "section",
      { class: "log" },
      h(
        "h3",
        {},
        h("span", {}, t("log")),
        h(
          "button",
          {
            class: "log-toggle small",
            "aria-expanded": String(Boolean(p.logOpen)),
            onclick: toggleLog,
          },
          t(p.logOpen ? "log.close" : "log.open"),
        ),
      ),
      h(
        "ol",
        {},
        [...p.log].reverse().map((line) => h("li", {}, p.logText(line))),
      ),
    ),
  );
}
