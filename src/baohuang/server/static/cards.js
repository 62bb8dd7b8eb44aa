// Cards: notation (cards.py, plays.py), sorting, the rank notation of a selection, drawing.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Ranks low to high (R2): 3 … A 2, small joker B, big joker R. */
export const RANKS = "3456789TJQKA2BR";
const TWO = 12;
export const SMALL = 13;
export const BIG = 14;
const SUITS = "shdc";
const SUIT_SYMBOL = { s: "♠", h: "♥", d: "♦", c: "♣" };

/** "9h" -> {text, rank, suit, marked}; jokers "B", "R", "B*", "R*" have suit null. */
export function parseCard(text) {
  const rank = RANKS.indexOf(text[0]);
  if (rank >= SMALL) return { text, rank, suit: null, marked: text.endsWith("*") };
  return { text, rank, suit: text[1], marked: false };
}

/** Display order (cards.py IDS_HIGH_FIRST): high first, suits s h d c, plain before marked. */
export function sortCards(texts) {
  const key = (c) => {
    const card = parseCard(c);
    return [-card.rank, card.suit ? SUITS.indexOf(card.suit) : card.marked ? 1 : 0];
  };
  return [...texts].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1];
  });
}

/** The rank shown on a card face: T is 10. */
export function rankLabel(rank) {
  return rank === 7 ? "10" : RANKS[rank];
}

/** A card in words for labels: ♥9, ♠10, 大王, 小王★. */
export function cardName(text) {
  const card = parseCard(text);
  if (card.suit === null)
    return t(card.rank === BIG ? "card.big" : "card.small") + (card.marked ? "★" : "");
  return SUIT_SYMBOL[card.suit] + rankLabel(card.rank);
}

/**
 * The rank notation of concrete cards, as Play.from_cards(...).text: big jokers R, small jokers
 * B, the set's rank, then filler 2s (2s alone are a set of 2s; with another rank they fill its
 * set only under `twos_wild`, R5.2). Null when the cards are no set (一套牌) under `rules` (R3):
 * none, mixed ranks, or 2s with another rank without `twos_wild`.
 */
export function playText(texts, rules) {
  let rank = -1;
  let count = 0;
  let small = 0;
  let big = 0;
  let twos = 0;
  for (const text of texts) {
    const r = parseCard(text).rank;
    if (r === BIG) big += 1;
    else if (r === SMALL) small += 1;
    else if (r === TWO) twos += 1;
    else if (count && r !== rank) return null;
    else {
      rank = r;
      count += 1;
    }
  }
  if (!texts.length) return null;
  const head = "R".repeat(big) + "B".repeat(small);
  if (!count) return head + "2".repeat(twos);
  if (twos && !rules?.twos_wild) return null;
  return head + RANKS[rank].repeat(count) + "2".repeat(twos);
}

/**
 * Hand indices for an action from the hint: exact cards ("9h 9h B*") or a rank notation
 * ("RB99"), chosen like game.py _cards_for: suits in order s h d c with `hidden` (the called
 * card) last, filler 2s in suit order, plain jokers before marked ones. Null if not held.
 */
export function pickCards(action, hand, hidden = null) {
  const free = hand.map((_, i) => i);
  const take = (want) => {
    const at = free.findIndex((i) => hand[i] === want);
    return at < 0 ? null : free.splice(at, 1)[0];
  };
  let wanted;
  if (/\s|[shdc*]/.test(action)) {
    wanted = action.trim().split(/\s+/);
  } else {
    const others = [...action].filter((ch) => ch !== "R" && ch !== "B");
    const twos = others.filter((ch) => ch === "2").length;
    const rank = others.find((ch) => ch !== "2");
    const bySuit = (r, n) => {
      const order = SUITS.split("").map((s) => r + s);
      if (order.includes(hidden)) order.push(...order.splice(order.indexOf(hidden), 1));
      const out = [];
      for (const card of order) for (const c of hand) if (c === card && out.length < n) out.push(c);
      return out;
    };
    // A set of 2s alone (no other rank) is plain 2s; with a rank the 2s are its fillers.
    wanted = rank ? bySuit(rank, others.length - twos) : [];
    wanted.push(...bySuit("2", twos));
    for (const joker of ["R", "B"]) {
      const n = [...action].filter((ch) => ch === joker).length;
      const plain = hand.filter((c) => c === joker).length;
      for (let k = 0; k < n; k += 1) wanted.push(k < plain ? joker : `${joker}*`);
    }
  }
  const picked = [];
  for (const want of wanted) {
    const i = take(want);
    if (i === null) return null;
    picked.push(i);
  }
  return picked;
}

const CROWN = "M2 14 L4 5 L8 10 L12 3 L16 10 L20 5 L22 14 Z";

/** A card face drawn with CSS and a little SVG. */
export function cardEl(text, attrs = {}) {
  const card = parseCard(text);
  if (card.suit === null) {
    const big = card.rank === BIG;
    const cls = `card joker ${big ? "big red" : "small black"}${card.marked ? " marked" : ""}`;
    return h(
      "div",
      { ...attrs, class: `${cls} ${attrs.class || ""}`, "data-card": text, title: cardName(text) },
      h(
        "span",
        { class: "jk" },
        [...t(big ? "card.big.face" : "card.small.face")].map((ch) => h("span", {}, ch)),
      ),
      h(
        "svg:svg",
        { class: "crown", viewBox: "0 0 24 16", "aria-hidden": "true" },
        h("svg:path", { d: CROWN }),
      ),
      card.marked ? h("span", { class: "star" }, "★") : null,
    );
  }
  const red = card.suit === "h" || card.suit === "d";
  const suit = SUIT_SYMBOL[card.suit];
  return h(
    "div",
    {
      ...attrs,
      class: `card ${red ? "red" : "black"} ${attrs.class || ""}`,
      "data-card": text,
      title: cardName(text),
    },
    h("span", { class: "rank" }, rankLabel(card.rank)),
    h("span", { class: "suit" }, suit),
    h("span", { class: "pip" }, suit),
  );
}

/** A row of small cards (a play, a pile). */
export function cardRow(texts, cls = "mini") {
  return h(
    "div",
    { class: `cards ${cls}` },
    sortCards(texts).map((c) => cardEl(c)),
  );
}
