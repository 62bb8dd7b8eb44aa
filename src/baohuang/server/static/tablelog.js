// The table's log: engine events (docs/record-format.md) in words, and public declarations.

import { cardName } from "./cards.js";
import { t } from "./i18n.js";

const DECLARED = {
  solo: "act.solo",
  show: "act.show",
  rebel: "act.rebel",
  kick: "act.kick",
  grab: "act.grab",
};
const NOT_DECLARED = {
  solo: "act.no_solo",
  show: "act.no_show",
  rebel: "act.no_rebel",
  kick: "act.no_kick",
  grab: "act.no_grab",
};

/** A poll answer as everyone sees it (a guard's 暗保 and a rebel's no look the same: 过). */
function answerWord(poll, answer) {
  if (answer !== "pass") return t(DECLARED[answer] || answer);
  return t(NOT_DECLARED[poll] || "pass");
}

/** The declaration a seat made by this event, for its seat badge; null if none. */
export function declaration(e) {
  if (e.kind === "declare" && e.answer !== "pass") return answerWord(e.poll, e.answer);
  if (e.kind === "transfer") return t("act.transfer");
  return null;
}

/** One line for the log, or null for events the table shows elsewhere (plays, passes). */
export function eventText(e, name) {
  const seat = name(e.seat);
  switch (e.kind) {
    case "deal":
      return t("ev.deal");
    case "candidate":
      return t("ev.candidate", { seat });
    case "decline":
      return t("ev.decline", { seat }) + (e.added ? ` +${cardName(e.added)}` : "");
    case "transfer":
      return t("ev.transfer", { seat, to: name(e.to) });
    case "void":
      return t("ev.void");
    case "accept":
      return t("ev.accept", { seat });
    case "roles":
      return [
        t("ev.roles", { seat: name(e.emperor) }),
        e.guard && t("ev.you_guard"),
        e.solo && t("ev.you_dark"),
      ]
        .filter(Boolean)
        .join(" · ");
    case "call":
      return [
        t("ev.call", { seat, card: cardName(e.card) }),
        e.guard && t("ev.you_guard"),
        e.solo && t("ev.you_dark"),
      ]
        .filter(Boolean)
        .join(" · ");
    case "open_solo":
      return t("ev.open_solo", { seat }) + (e.card ? ` ${cardName(e.card)}×4` : "");
    case "declare":
      return t("ev.declare", { seat, answer: answerWord(e.poll, e.answer) });
    case "rebellion":
      return t(e.success ? "ev.rebellion.yes" : "ev.rebellion.no");
    case "reveal":
      return t(e.role === "solo" ? "ev.reveal.solo" : "ev.reveal.guard", { seat });
    case "round":
      return e.jiefeng ? t("ev.jiefeng", { seat: name(e.leader) }) : null;
    case "out":
      return t("ev.out", { seat, place: t(`place.${e.place}`) });
    case "tribute_paid":
      return t("ev.tribute_paid", { seat }) + (e.card ? ` ${cardName(e.card)}` : "");
    case "tribute":
      return (
        (e.cards || [])
          .map((c) =>
            t("ev.tribute_card", { from: name(c.from), to: name(c.to), card: cardName(c.card) }),
          )
          .join(" · ") || null
      );
    case "cleared":
      return t("ev.cleared", { seat, by: name(e.by) });
    case "escape":
      return t("ev.escape", { seat });
    case "game_over":
      return t("ev.game_over", { outcome: t(`outcome.${e.outcome}`) });
    default:
      return null;
  }
}

const CARD = /^([3-9TJQKA2][shdc]|[BR]\*?)$/;
const ACTION_WORDS = {
  accept: "act.accept",
  decline: "act.decline",
  solo: "act.solo",
  transfer: "act.transfer",
  show: "act.show",
  rebel: "act.rebel",
  kick: "act.kick",
  grab: "act.grab",
  pass: "pass",
  escape: "role.escaped",
};

/** An action (docs/record-format.md) in words; null for a play, which is shown as cards. */
export function actionWords(action) {
  const [word, arg] = action.split(" ");
  if (CARD.test(word)) return null;
  if (word === "call") return t("act.call", { card: cardName(arg) });
  if (word === "tribute") return t("act.tribute", { card: cardName(arg) });
  if (word === "solo" && arg) return t("act.solo_card", { card: cardName(arg) });
  return t(ACTION_WORDS[word] || word);
}
