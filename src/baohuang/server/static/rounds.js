// Rounds (轮) of play, folded from the game's events (events.py: round, play, pass, out): the
// round in progress and the last finished one, so the table can keep a finished round on show
// until the next lead, and show the previous round (上一轮) on demand, as QQ does.

import { cardRow } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

/**
 * A round: {leader, jiefeng, turns: [{seat, cards} | {seat, pass: true}], out: [seats],
 * taker}. R6.3: it ends when everybody else still holding cards passed after the last play;
 * that play's seat takes it (R6.5 接风: the next holder leads when that seat went out).
 */
export class Rounds {
  constructor(saved = null) {
    this.current = saved?.current ?? null;
    this.last = saved?.last ?? null;
    this.seen = saved?.seen ?? -1; // the last event folded (its seq in the game's log)
  }

  /** Forget everything: a new game starts. */
  reset() {
    this.current = null;
    this.last = null;
    this.seen = -1;
  }

  /** Fold one engine event (a seat's or a spectator's copy). */
  add(e) {
    if (Number.isInteger(e.seq)) {
      if (e.seq <= this.seen) return; // already folded (replayed after a reconnect)
      this.seen = e.seq;
    }
    switch (e.kind) {
      case "deal": // a new deal (R8.6 deals again after a void one)
        this.current = null;
        this.last = null;
        break;
      case "round":
        this.finish();
        this.current = { leader: e.leader, jiefeng: !!e.jiefeng, turns: [], out: [], taker: null };
        break;
      case "play":
        this.current?.turns.push({ seat: e.seat, cards: e.cards });
        break;
      case "pass":
        this.current?.turns.push({ seat: e.seat, pass: true });
        break;
      case "out":
        this.current?.out.push(e.seat);
        break;
      case "game_over":
        this.finish();
        break;
      default:
    }
  }

  /** The round in progress is over: the last play's seat took it. */
  finish() {
    const round = this.current;
    this.current = null;
    if (!round || !round.turns.length) return;
    const plays = round.turns.filter((turn) => !turn.pass);
    round.taker = plays.length ? plays[plays.length - 1].seat : null;
    this.last = round;
  }

  /** The finished round kept on show: a new round not led yet (or the game over). */
  kept(view) {
    if (!view || view.lead || view.trick?.length || !this.last) return null;
    if (this.current?.turns.length) return null;
    return this.last;
  }

  toJSON() {
    return { current: this.current, last: this.last, seen: this.seen };
  }
}

/** A seat's last turn in `round`, as the seat box shows it (dimmed), or null. */
export function turnOf(round, seat) {
  const mine = round.turns.filter((turn) => turn.seat === seat);
  if (!mine.length) return null;
  const turn = mine[mine.length - 1];
  return turn.pass
    ? h("span", { class: "passed" }, t("act.pass"))
    : cardRow(turn.cards, "mini");
}

/** The seat box's kept turn: this seat's part in the finished round still on show. */
export function keptTurn(p, seat) {
  const round = p.rounds?.kept(p.view);
  const shown = round ? turnOf(round, seat) : null;
  return shown ? h("span", { class: "kept", title: t("rounds.last") }, shown) : null;
}

/** The 上一轮 button: opens the last finished round (also the L key). */
export function roundsButton(p) {
  if (!p.rounds?.last) return null;
  return h(
    "button",
    {
      class: `rounds-open small${p.roundsOpen ? " on" : ""}`,
      "aria-expanded": String(!!p.roundsOpen),
      title: t("rounds.key"),
      onclick: () => p.toggleRounds(),
    },
    t("rounds.last"),
    h("kbd", {}, "L"),
  );
}

/** The turns of `round` in order, a row each: who, then the cards or 过. */
export function roundList(p, round, cls = "round-list") {
  const top = [...round.turns].reverse().find((turn) => !turn.pass); // the play that took it
  return h(
    "ol",
    { class: cls },
    round.turns.map((turn) =>
      h(
        "li",
        {
          class: [turn.pass ? "pass" : "play", turn === top && "top"].filter(Boolean).join(" "),
          "data-seat": turn.seat,
        },
        h("span", { class: "who" }, p.seatName(turn.seat)),
        turn.pass
          ? h("span", { class: "passed" }, t("act.pass"))
          : cardRow(turn.cards, "tiny-row"),
        !turn.pass && round.out.includes(turn.seat) && isLastPlay(round, turn)
          ? h("span", { class: "badge out-mark" }, t("rounds.out"))
          : null,
      ),
    ),
  );
}

function isLastPlay(round, turn) {
  const mine = round.turns.filter((x) => x.seat === turn.seat && !x.pass);
  return mine[mine.length - 1] === turn;
}

/** Who led and who took `round`, in words. */
export function roundSummary(p, round) {
  const lead = t(round.jiefeng ? "rounds.led.jiefeng" : "rounds.led", {
    name: p.seatName(round.leader),
  });
  const took = round.taker === null ? null : t("rounds.took", { name: p.seatName(round.taker) });
  return [lead, took].filter(Boolean).join(" · ");
}

/** The popover with the last finished round; closes on Esc, on its ✕ and on a click outside. */
export function roundsPopover(p) {
  const round = p.rounds?.last;
  if (!p.roundsOpen || !round) return null;
  const close = () => p.toggleRounds(false);
  return h(
    "div",
    {
      class: "rounds-back",
      onclick: (ev) => ev.target === ev.currentTarget && close(),
    },
    h(
      "div",
      { class: "rounds-pop", role: "dialog", "aria-label": t("rounds.last") },
      h(
        "div",
        { class: "rounds-head" },
        h("strong", {}, t("rounds.last")),
        h("span", { class: "rounds-sum" }, roundSummary(p, round)),
        h(
          "button",
          { class: "rounds-close small", "aria-label": t("btn.close"), onclick: close },
          "✕",
        ),
      ),
      roundList(p, round),
    ),
  );
}
