// Friends' tables (好友房) and 再来一场 on the table page: drawn into the top bar and the
// results window by tableview.js. `p` is the TablePage of table.js.

import { session } from "./api.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";

/** The link that opens this friends' table by its room code (the id alone opens nothing),
 * and sits whoever follows it, once logged in. */
const inviteLink = (info) => `${location.origin}${location.pathname}#/room/${info.code}`;

/** This page's own seat at the table, or null when watching. */
const mySeat = (p) => (p.seat === null ? null : (p.info.seats[p.seat] ?? null));

/** The people seated (bots are always ready): [seat number, seat] pairs. */
const people = (info) =>
  info.seats.map((seat, s) => [s, seat]).filter(([, seat]) => seat && seat.user !== null);

const names = (p, list) => list.map(([s]) => p.seatName(s)).join(t("sep.list"));

async function copyInvite(p) {
  const link = inviteLink(p.info);
  try {
    await navigator.clipboard.writeText(link);
    toast(t("room.copied"));
  } catch {
    // No clipboard here (a page not served over https, or permission refused): show the
    // link in a field, selected, to copy by hand.
    p.roomInvite = true;
    p.render();
    p.root.querySelector(".invite-link")?.select();
  }
}

/** The friends' table's code, its invite link, and its creator's 开始（空位补机器人）. */
function friendsParts(p) {
  const { info } = p;
  const mine = mySeat(p);
  const creator = mine !== null && session.user?.id === info.creator;
  const empty = info.seats.some((seat) => !seat);
  // Until it is pressed (the seats full, the creator ready), or after a match some left.
  const startable =
    creator &&
    (info.status === "waiting" || (info.status === "finished" && empty)) &&
    (empty || !mine.ready);
  const unready = people(info).filter(([, seat]) => !seat.ready);
  return [
    h("span", { class: "tag room-private" }, t("room.private")),
    h(
      "span",
      { class: "tag room-code", "data-code": info.code },
      t("room.code", { code: info.code }),
    ),
    h("button", { class: "copy-invite small", onclick: () => copyInvite(p) }, t("room.copy")),
    p.roomInvite
      ? h("input", {
          class: "invite-link",
          readonly: true,
          value: inviteLink(info),
          "aria-label": t("room.copy_here"),
          title: t("room.copy_here"),
          onfocus: (ev) => ev.target.select(),
        })
      : null,
    startable
      ? h(
          "button",
          {
            class: "start-bots small primary",
            title: t("room.start_note"),
            onclick: () => p.send("start"),
          },
          t("room.start"),
        )
      : null,
    startable ? h("span", { class: "room-note" }, t("room.start_note")) : null,
    info.status === "waiting" && !empty && unready.length
      ? h(
          "span",
          { class: "room-note waiting-for" },
          t("room.waiting_for", { names: names(p, unready) }),
        )
      : null,
  ];
}

/** 再来一场 (or, once clicked, 取消 while the others decide) and who has agreed so far. */
function rematchParts(p, where) {
  const { info } = p;
  const mine = mySeat(p);
  if (info.status !== "finished") return null;
  const all = people(info);
  const agreed = all.filter(([, seat]) => seat.ready);
  const count = h(
    "span",
    { class: "tag agreed" },
    t("room.agreed", { n: agreed.length, total: all.length }),
  );
  const list = agreed.length
    ? h(
        "span",
        { class: "room-note agreed-names" },
        t("room.agreed_names", { names: names(p, agreed) }),
      )
    : null;
  if (mine === null) return all.length ? [count, list] : null; // a watcher sees who agreed
  const button = h(
    "button",
    {
      class: `rematch ${where}${mine.ready ? " waiting" : " primary"}`,
      "aria-pressed": String(mine.ready),
      onclick: () => p.send("ready", { on: !mine.ready }),
    },
    t(mine.ready ? "room.rematch_cancel" : "room.rematch"),
  );
  return [button, count, list];
}

/** The room's part of the top bar (its code, the invite link, 开始 with bots, 再来一场), or
 * null. */
export function roomBar(p) {
  const parts = [p.info.code ? friendsParts(p) : null, rematchParts(p, "bar")].flat();
  if (!parts.some(Boolean)) return null;
  return h("span", { class: "room-bar" }, parts);
}

/** 再来一场 in the results window after a match, or null. */
export function rematchButton(p) {
  const parts = rematchParts(p, "in-results");
  return parts ? h("span", { class: "rematch-box" }, parts) : null;
}
