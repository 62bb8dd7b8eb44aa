// One table's WebSocket (/ws/v1/tables/{id}, protocol.py): hello, event order, commands.

import { both } from "./i18n.js";

let counter = 0;
/** A ping every HEARTBEAT ms; a socket that has heard nothing (not even the pong) for SILENCE
 * ms is taken for lost and opened again: a node paused or cut off behind a proxy never
 * closes it, and the page would wait for ever (the server's own nodes may take it over). */
export const HEARTBEAT = 10000;
export const SILENCE = 25000;

/** The seat token a `sit` ack gave for this table, kept across reloads. */
export const tokens = {
  get: (table) => localStorage.getItem(`bh.token.${table}`),
  set: (table, token) => localStorage.setItem(`bh.token.${table}`, token),
  drop: (table) => localStorage.removeItem(`bh.token.${table}`),
};

/** A friends' table's room code (好友房), kept from the code typed or the invite link: the
 * hello shows it, since the table's id alone opens nothing (R14-like, issue "Hardening"). */
export const rooms = {
  get: (table) => localStorage.getItem(`bh.room.${table}`),
  set: (table, code) => localStorage.setItem(`bh.room.${table}`, code),
};

/**
 * A connection that says hello with the saved token and the last sequence number seen,
 * checks that events arrive in order (a gap reconnects with `since`), reconnects when the
 * socket drops (sending unanswered commands again), and turns commands into promises
 * answered by their ack or error.
 *
 * handlers: welcome(d), event(d, v), snapshot(d, v), view(d, v) (this seat's own view, no
 * event: a sealed poll's answer kept, R14), error(d) for errors of no command,
 * status(online: boolean).
 */
export class TableConn {
  constructor(table, handlers, since = null) {
    this.table = table;
    this.handlers = handlers;
    this.seq = since;
    this.pending = new Map();
    this.closed = false;
    this.retry = 0;
    this.open();
  }

  open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/v1/tables/${this.table}`);
    this.ws = ws;
    this.heard = Date.now();
    ws.onopen = () => {
      this.retry = 0;
      this.heard = Date.now();
      clearInterval(this.beat);
      this.beat = setInterval(() => this.heartbeat(ws), HEARTBEAT);
      const table = this.table;
      const hello = { token: tokens.get(table), since: this.seq, code: rooms.get(table) };
      ws.send(JSON.stringify({ t: "hello", d: hello }));
    };
    ws.onmessage = (msg) => {
      if (this.ws !== ws) return;
      this.heard = Date.now();
      this.receive(JSON.parse(msg.data));
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      if (this.closed) return;
      this.handlers.status(false);
      const wait = Math.min(4000, 250 * 2 ** this.retry);
      this.retry += 1;
      this.timer = setTimeout(() => this.open(), wait);
    };
  }

  receive({ t, v, d, a }) {
    if (t === "event" && a) {
      // The command's answer rides in the frame of the last event it caused: that event,
      // then its ack, as if they had come one after the other.
      this.receive({ t, v, d });
      this.receive({ t: "ack", v, d: a });
      return;
    }
    if (t === "welcome") {
      const ws = this.ws;
      this.handlers.status(true);
      this.handlers.welcome(d, v);
      // Commands left unanswered by the last socket go again with the same id: the server
      // answers a repeat with its first answer and does not apply it twice.
      if (this.ws === ws) for (const { text } of this.pending.values()) ws.send(text);
    } else if (t === "event") {
      if (this.seq !== null && v <= this.seq) return; // already seen
      if (this.seq !== null && v !== this.seq + 1) {
        this.reconnect(); // a gap: ask again for everything after this.seq
        return;
      }
      this.seq = v;
      this.handlers.event(d, v);
    } else if (t === "snapshot") {
      this.seq = v;
      this.handlers.snapshot(d, v);
    } else if (t === "view") {
      // R14: this seat's answer to a sealed poll was kept (no event): its own view alone.
      if (this.seq === v) this.handlers.view?.(d, v);
    } else if (t === "ack" || t === "error") {
      const waiter = d.id ? this.pending.get(d.id) : null;
      if (waiter) {
        this.pending.delete(d.id);
        if (t === "ack") waiter.resolve(d);
        else waiter.reject(d);
      } else if (t === "error") {
        this.handlers.error(d);
      }
    }
  }

  /** Send command `op` with its fields; resolves with the ack, rejects with the error data. */
  command(op, fields = {}) {
    counter += 1;
    const id = `${Date.now().toString(36)}-${counter}`;
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject({ code: "offline", ...both("conn.offline") });
        return;
      }
      const text = JSON.stringify({ t: "cmd", v: this.seq ?? 0, d: { id, op, ...fields } });
      this.pending.set(id, { resolve, reject, text });
      this.ws.send(text);
    });
  }

  /** Ping the server; a socket silent past SILENCE is dropped and opened again. */
  heartbeat(ws) {
    if (this.ws !== ws || ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.heard > SILENCE) {
      this.handlers.status(false);
      this.reconnect();
      return;
    }
    ws.send(JSON.stringify({ t: "ping", d: {} }));
  }

  /** Drop the socket and say hello again with `since` (after a gap). */
  reconnect(since = this.seq) {
    this.seq = since;
    const old = this.ws;
    this.ws = null;
    old.onclose = null;
    old.close();
    this.open();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.beat);
    this.ws?.close();
    for (const waiter of this.pending.values())
      waiter.reject({ code: "offline", ...both("conn.lost") });
    this.pending.clear();
  }
}
