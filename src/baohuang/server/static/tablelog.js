// The table's log: what each engine event says (docs/record-format.md), as the server chose
// it (a table event's `says`, src/baohuang/text/narrator.py: the catalog's narration
// templates and their fields); here only the fields are put in words (player names, card
// names). Also the declarations on the seat badges, and an action in words for the replay.

import { cardName } from "./cards.js";
import { t } from "./i18n.js";

/** The event fields that name a seat (docs/record-format.md; guard_seat in open replays). */
const SEAT_FIELDS = new Set(["seat", "to", "from", "by", "leader", "dealer", "guard_seat"]);
/** Lines the table shows elsewhere: who leads, the plays and passes, the hand. */
const SHOWN_ELSEWHERE = new Set(["event.round", "event.play", "event.pass", "event.hand"]);

/** The templates `events` say ([key, fields] each), from their `says` (the server's: a
 *  template's fields are null where they are the event's own). */
export function said(events, says) {
  return events.flatMap((e, i) => (says?.[i] || []).map(([key, fields]) => [key, fields ?? e]));
}

/** The log's templates for a table event's engine events: said() less what the table shows
 *  elsewhere. */
export function told(d) {
  return said(d.events, d.says).filter(([key]) => !SHOWN_ELSEWHERE.has(key));
}

/** The template `key` in the page's language, its fields in words, seats named by `seat`. */
export function render(key, fields, seat) {
  return t(key).replace(/\{(\w+)\}/g, (_, name) => field(name, fields[name], seat));
}

/** A template's field in words: seats by name (`seat`), cards by cardName(). */
function field(name, value, seat) {
  if (SEAT_FIELDS.has(name)) return seat(value);
  if (name === "seats" || name === "rebels") {
    return value.map((s) => seat(s)).join(t("sep.list"));
  }
  if (name === "payers") {
    return value.map(([key, fields]) => render(key, fields, seat)).join(t("sep.clause"));
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
