// The table's log: engine events (docs/record-format.md) told with the catalog's narration
// templates (src/baohuang/text/narration.py), chosen exactly as the terminal chooses them:
// Narrator.says and alone() here are cli/terminal.py's Narrator.says and _alone line for line;
// only field() is the page's own (player names, card names). Also the declarations on the seat
// badges, and an action in words for the replay.

import { cardName } from "./cards.js";
import { t } from "./i18n.js";

/** The event fields that name a seat (docs/record-format.md; guard_seat in open replays). */
const SEAT_FIELDS = new Set(["seat", "to", "from", "by", "leader", "dealer", "guard_seat"]);
/** The event kinds told by the template of their own name, event.<kind>. */
const PLAIN_KINDS = new Set([
  "void",
  "accept",
  "transfer",
  "kick",
  "cleared",
  "escape",
  "play",
  "pass",
  "out",
  "game_over",
]);
/** Lines the table shows elsewhere: who leads, the plays and passes, the hand. */
const SHOWN_ELSEWHERE = new Set(["event.round", "event.play", "event.pass", "event.hand"]);

/** Tells one game's events in order, naming a seat by `name(seat)`. */
export class Narrator {
  constructor(name) {
    this.name = name;
    this.holder = null; // the seat holding R* when a marked-joker chain starts (R9.3, R11.2)
    this.passedOn = false; // the chain has moved on since the deal (a yield or a 转让)
    this.transferred = false; // the last answer was a 转让: its receiver must 登基 (R9.3)
    this.last = {};
  }

  /** The log's templates for `e` ([key, fields]): what says() tells, less what the table
   *  shows elsewhere. */
  told(e) {
    return this.says(e).filter(([key]) => !SHOWN_ELSEWHERE.has(key));
  }

  /**
   * The templates that tell `e` after the events before it: the R* holder's 登基 or 让位 at the
   * start of the chain is one line, so is the 登基 a 转让 forces, a poll answer the next event
   * announces is told once.
   */
  says(e) {
    const last = this.last;
    this.last = e;
    if (e.kind === "deal") {
      this.holder = null;
      this.passedOn = false;
      this.transferred = false;
    } else if (
      e.kind === "candidate" &&
      (this.transferred || (e.pile.join() === "R*" && !this.passedOn))
    ) {
      this.holder = e.seat; // R9.3, R11.2: told with its answer
      this.transferred = false;
      return [];
    } else if (["accept", "decline", "transfer"].includes(e.kind)) {
      const holder = this.holder;
      this.holder = null;
      this.passedOn ||= e.kind !== "accept";
      this.transferred = e.kind === "transfer";
      if (holder === e.seat && e.kind !== "transfer") return [[`event.${e.kind}.holder`, e]];
    } else if (e.kind === "declare" && ["solo", "grab", "kick"].includes(e.answer)) {
      return []; // the open solo or the kick that follows tells it
    } else if (e.kind === "reveal" && last.seat === e.seat) {
      if (last.answer === "show") return []; // 明保 said it
      if (last.kind === "transfer") return [["event.transfer.reveal", e]];
    }
    return alone(e);
  }

  /** The template `key` in the page's language, its fields in words, seats named by `seat`. */
  render(key, fields, seat = this.name) {
    return t(key).replace(/\{(\w+)\}/g, (_, name) => this.field(name, fields[name], seat));
  }

  /** A template's field in words: seats by name (`seat`), cards by cardName(). */
  field(name, value, seat = this.name) {
    if (SEAT_FIELDS.has(name)) return seat(value);
    if (name === "seats" || name === "rebels") {
      return value.map((s) => seat(s)).join(t("sep.list"));
    }
    if (name === "payers") {
      return value.map(([key, fields]) => this.render(key, fields, seat)).join(t("sep.clause"));
    }
    if (["place", "outcome", "poll"].includes(name)) return t(`${name}.${value}`);
    if (name === "auto") return value ? t("event.auto") : "";
    if (name === "card" || name === "added") return cardName(value);
    if (["hand", "pile", "shown", "cards"].includes(name)) {
      // R8.9: the QQ pile starts empty
      return value.map(cardName).join(" ") || t("pile.empty");
    }
    return String(value);
  }
}

/** The templates that tell `e` on its own (open replays add hands, guard_seat, dark, card). */
function alone(e) {
  switch (e.kind) {
    case "deal": {
      const counts = [...new Set(e.counts)].sort((a, b) => a - b).join("/");
      const fields = { deal: e.deal + 1, counts, dealer: e.dealer ?? null };
      const said = [[Number.isInteger(e.dealer) ? "event.deal.dealer" : "event.deal", fields]];
      if ("hand" in e) said.push(["event.hand", e]);
      const hands = Object.entries(e.hands || {}).sort(([a], [b]) => a - b);
      return [...said, ...hands.map(([s, hand]) => ["event.hand_of", { seat: +s, hand }])];
    }
    case "tribute_due": {
      // R12 and R6.8: who pays how many cards (one entry per card)
      const cards = new Map();
      for (const [payer, to] of e.payers) {
        const key = `${payer}/${to}`;
        cards.set(key, [payer, to, (cards.get(key)?.[2] || 0) + 1]);
      }
      const payers = [...cards.values()].map(([seat, to, n]) => [
        to === null ? "event.tribute_due.payer" : "event.tribute_due.payer_to",
        { seat, to, n },
      ]);
      return [["event.tribute_due", { payers }]];
    }
    case "tribute_paid":
      return [["card" in e ? "event.tribute_paid.card" : "event.tribute_paid", e]];
    case "tribute": {
      const known = [...(e.cards || [])];
      return e.transfers.map((move) => {
        const i = known.findIndex((c) => c.from === move.from && c.to === move.to);
        return i < 0 ? ["event.tribute", move] : ["event.tribute.card", known.splice(i, 1)[0]];
      });
    }
    case "candidate":
      return [["event.candidate", e]];
    case "decline":
      return [[e.added ? "event.decline.added" : "event.decline", e]];
    case "call":
    case "roles": {
      // R8.6, R9.3–R9.4 (the 登基 before roles said who is emperor)
      const said = e.kind === "call" ? [["event.call", e]] : [];
      if (e.forced) said.push(["event.call.forced", e]); // the only callable triple: shown
      if (e.guard === true) said.push([`event.${e.kind}.guard`, e]);
      if (e.solo === "dark") said.push([`event.${e.kind}.dark`, e]);
      if (Number.isInteger(e.guard_seat)) said.push(["event.guard_is", e]);
      if (e.dark) said.push(["event.dark", e]);
      return said;
    }
    case "poll": // nothing to tell when nobody is asked; R14: 明保 and 造反 are sealed
      if (!e.seats.length) return [];
      return [[["show", "rebel"].includes(e.poll) ? "event.poll.sealed" : "event.poll", e]];
    case "open_solo": {
      // four cards shown (R8.7), declared (R9.2, R9.3, R11.3), grabbed (R11.4)
      const how = e.how || "shown";
      if (how !== "shown") return [[`event.open_solo.${how}`, e]];
      const shown = e.shown?.length ? e.shown : Array(4).fill(e.card);
      return [["event.open_solo", { ...e, shown }]];
    }
    case "declare": // a pass is told by the poll's name
      return [
        [e.answer === "pass" ? `event.declare.pass.${e.poll}` : `event.declare.${e.answer}`, e],
      ];
    case "rebellion": // R9.5: told when anybody rebelled
      if (!e.rebels.length) return [];
      return [[e.success ? "event.rebellion.success" : "event.rebellion.failed", e]];
    case "round":
      return [[e.jiefeng ? "event.round.jiefeng" : "event.round", e]];
    case "reveal": // a guard (R8.8, R9.4, R9.5) or a dark solo (R9.5) made public
      return [[`event.reveal.${e.role || "guard"}`, e]];
    default:
      return PLAIN_KINDS.has(e.kind) ? [[`event.${e.kind}`, e]] : [];
  }
}

/** The declaration a seat made by this event, for its seat badge; null if none. */
export function declaration(e) {
  if (e.kind === "declare" && e.answer !== "pass") return t(`act.${e.answer}`);
  if (e.kind === "transfer") return t("act.transfer");
  return null;
}

const CARD = /^([3-9TJQKA2][shdc]|[BR]\*?)$/;

/** An action (docs/record-format.md) in words; null for a play, which is shown as cards. */
export function actionWords(action) {
  const [word, arg] = action.split(" ");
  if (CARD.test(word)) return null;
  if (word === "call") return t("act.call", { card: cardName(arg) });
  if (word === "tribute") return t("act.tribute", { card: cardName(arg) });
  if (word === "solo" && arg) return t("act.solo_card", { card: cardName(arg) });
  return t(`act.${word}`);
}
