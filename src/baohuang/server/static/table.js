// The table page (牌桌): the connection, the state it folds, commands and the keyboard.
// Everything shown comes from the seat's own view and the table's public info (R14).

import { errorText, loadPresets, session } from "./api.js";
import { pickCards, playText, sortCards } from "./cards.js";
import { TableConn, tokens } from "./conn.js";
import { h, mount, toast } from "./dom.js";
import { pick, t } from "./i18n.js";
import { intent, loginBox } from "./lobby.js";
import { fly, newFlight } from "./motion.js";
import { Rounds } from "./rounds.js";
import { sound } from "./sound.js";
import { declaration, render, told } from "./tablelog.js";
import { renderTable, showClock } from "./tableview.js";

const CACHE = (id) => `bh.table.${id}`;
const LOG_SIZE = 60;
/** Milliseconds 自动过 waits before it passes: time to see the play it cannot beat. */
const AUTO_PASS_MS = 700;

class TablePage {
  constructor(root, id, signals) {
    this.root = root;
    this.id = id;
    this.signals = signals;
    this.info = null;
    this.seat = null;
    this.view = null;
    this.prompt = null;
    this.log = [];
    this.decl = {};
    this.bubbles = {};
    this.selected = new Set();
    this.cursor = 0;
    this.viewKey = null;
    this.clock = null;
    this.suggested = null;
    this.modal = null;
    this.lastOver = null; // the last game_over's data, for 成绩
    this.menu = false;
    this.online = true;
    this.busy = false;
    this.showCounter = localStorage.getItem("bh.counter") !== "off";
    this.autoPass = localStorage.getItem("bh.autopass") === "on"; // 自动过, off by default
    this.autoPassFor = null; // the view an automatic 过 is under way for
    this.roundsOpen = false; // the 上一轮 popover
    this.flight = null; // the play flying to the centre (motion.js)
    // After a reload: the state seen so far, so that `hello` may ask only for what was missed.
    const cache = JSON.parse(sessionStorage.getItem(CACHE(id)) || "null");
    if (cache)
      Object.assign(this, {
        info: cache.info,
        seat: cache.seat,
        view: cache.view,
        prompt: cache.prompt ?? null, // what the view's seat is asked (the server's)
        log: cache.log,
        decl: cache.decl,
        lastOver: cache.lastOver ?? null,
      });
    this.rounds = new Rounds(cache?.rounds);
    this.conn = new TableConn(
      id,
      {
        welcome: (d) => this.onWelcome(d),
        event: (d) => this.onEvent(d),
        snapshot: (d) => this.onSnapshot(d),
        view: (d) => this.onOwnView(d),
        error: (d) => this.onError(d),
        status: (online) => this.onStatus(online),
      },
      cache ? cache.seq : null,
    );
    this.keys = (ev) => this.onKey(ev);
    document.addEventListener("keydown", this.keys);
    this.ticker = setInterval(() => this.tickClock(), 250);
    this.render();
  }

  destroy() {
    this.conn.close();
    clearInterval(this.ticker);
    document.removeEventListener("keydown", this.keys);
  }

  // ------------------------------------------------------------ server messages

  onWelcome(d) {
    this.setClock(d.clock);
    if (this.conn.seq !== null && d.seat !== this.seat) {
      // The state kept from before belongs to another seat: start over from a snapshot.
      this.view = null;
    this.prompt = null;
      this.seat = d.seat;
      this.conn.reconnect(null);
      return;
    }
    this.info = d.table;
    this.seat = d.seat;
    if (d.seat === null) tokens.drop(this.id);
    if (intent.sit === this.id) {
      const ready = intent.ready; // 快速开始: seated and 准备 in one click
      intent.sit = null;
      intent.ready = false;
      if (d.seat === null) {
        this.sit(null).then(() => {
          if (ready && this.seat !== null) this.send("ready", { on: true });
        });
      }
    }
    this.update();
  }

  onEvent(d) {
    if (d.table) this.info = d.table;
    // Live events carry the turn clock; events replayed after `hello.since` do not.
    if ("clock" in d) this.setClock(d.clock);
    const wasMine = this.decides();
    this.record(d);
    if (d.view) this.setView(d.view, d.prompt);
    if ("clock" in d) this.cue(d, wasMine);
    if (d.kind === "start" && d.game === 0) {
      this.modal = null; // 再来一场: the last match's results would cover the new deal
      this.lastOver = null;
    } else if (d.kind === "game_over") {
      this.modal = { kind: "game", over: d };
      this.lastOver = d; // 成绩 opens it again
    } else if (d.kind === "match_over") {
      // Keep the last game's table open and add the match totals under it.
      this.modal =
        this.modal?.kind === "game"
          ? { ...this.modal, matchOver: true }
          : { kind: "match", matchOver: true };
    } else if (d.kind === "signal") {
      this.bubble(d.seat, pick(d.zh, d.en));
    }
    this.update();
  }

  onSnapshot(d) {
    this.info = d.table;
    this.seat = d.seat;
    this.setClock(d.clock);
    if (d.history) {
      // The current game's events so far: its log, as if this page had seen them live.
      this.log = [];
      this.decl = {};
      this.rounds.reset();
      for (const e of d.history) this.record(e);
    }
    this.setView(d.view, d.prompt);
    this.update();
  }

  /** R14: this seat's answer to a sealed poll is kept until every seat asked has answered:
   * its own view (answered, waiting for the others), with no event for anyone. */
  onOwnView(d) {
    this.setClock(d.clock);
    this.setView(d.view, d.prompt);
    this.update();
  }

  onError(d) {
    if (d.code === "bad_token") {
      tokens.drop(this.id); // the seat is gone (left, or taken over): watch instead
      return;
    }
    if (d.code === "not_found") {
      this.conn.close();
      mount(this.root, h("div", { class: "panel missing" }, t("conn.missing")));
      return;
    }
    if (d.code === "room_code") {
      // A friends' table this page has no code for: say so, and point to the lobby's 房号 box.
      this.conn.close();
      mount(
        this.root,
        h(
          "div",
          { class: "panel missing room-closed" },
          h("p", {}, errorText(d)),
          h("a", { href: "#/lobby" }, t("nav.lobby")),
        ),
      );
      return;
    }
    toast(errorText(d), "error");
  }

  onStatus(online) {
    if (online && !this.online) toast(t("conn.back"));
    this.online = online;
    this.render();
  }

  /** The seat's view, and what it is asked (the server's prompt: keys and fields). */
  setView(view, prompt = null) {
    const before = this.view;
    this.view = view;
    this.prompt = prompt;
    if (!view || !before || view.hand?.join() !== before.hand?.join()) {
      this.selected.clear();
      this.cursor = Math.min(this.cursor, Math.max(0, (view?.hand?.length || 1) - 1));
    }
    const key = view ? `${this.info?.game}:${view.deal}:${view.seq}` : null;
    if (key !== this.viewKey) {
      this.viewKey = key;
      this.suggested = null;
    }
  }

  /** The server's turn clock ({seat, remaining, timer} or null) as a local deadline. */
  setClock(clock) {
    this.clock = clock ? { seat: clock.seat, deadline: Date.now() + clock.remaining * 1000 } : null;
  }

  /** A live event's motion and sounds: a play flies in; play, pass, your turn, game over. */
  cue(d, wasMine) {
    const moves = (d.events || []).filter((e) => e.kind === "play" || e.kind === "pass");
    const move = moves[moves.length - 1];
    if (move?.kind === "play") this.flight = newFlight(move.seat);
    if (move) sound(move.kind);
    if (d.kind === "game_over") {
      const points = (d.scores ?? d.result?.scores)?.[this.seat];
      sound("over", { won: this.seat === null || points === undefined || points >= 0 });
    } else if (!wasMine && this.decides()) sound("turn");
  }

  /** This seat has a decision to make now (not left to a bot on 托管). */
  decides() {
    const v = this.view;
    return (
      this.seat !== null &&
      v?.turn === this.seat &&
      v.legal?.length > 0 &&
      !this.info?.seats?.[this.seat]?.auto
    );
  }

  /** Open or close the 上一轮 popover (the last finished round). */
  toggleRounds(open = !this.roundsOpen) {
    this.roundsOpen = open && !!this.rounds.last;
    this.render();
  }

  /** An event's lines in the log and its declarations on the seat badges. */
  record(d) {
    if (d.kind === "start") {
      this.rounds.reset();
      this.decl = {};
      this.addLog("log.start", { n: d.game + 1 });
    }
    if (d.kind === "start" || d.kind === "game") {
      for (const [key, fields] of told(d)) this.addLog(key, fields);
      for (const e of d.events) {
        this.rounds.add(e);
        const word = declaration(e);
        if (word) (this.decl[e.seat] ||= []).push(word);
      }
    } else if (d.kind === "match_over") {
      this.addLog("log.match_over", {});
    } else if (d.kind === "auto") {
      const key = !d.on
        ? "log.auto.off"
        : { timeout: "log.auto.timeout", disconnect: "log.auto.disconnect" }[d.reason] ||
          "log.auto.request";
      this.addLog(key, { seat: d.seat });
    }
  }

  /** A log line: its template and fields, with the seats as they are now, so that it names
   *  who acted then and is told in the page's language when drawn (logText). */
  addLog(key, fields) {
    this.log.push({ key, fields, seats: this.seatsNow() });
    if (this.log.length > LOG_SIZE) this.log.splice(0, this.log.length - LOG_SIZE);
  }

  logText(line) {
    if (typeof line === "string") return line; // kept by a page from before lines had keys
    return render(line.key, line.fields, (s) => this.nameOf(line.seats?.[s], s));
  }

  bubble(seat, text) {
    const mark = Symbol("bubble");
    this.bubbles[seat] = { text, mark };
    setTimeout(() => {
      if (this.bubbles[seat]?.mark === mark) delete this.bubbles[seat];
      this.render();
    }, 4000);
  }

  /**
   * Save what a reload needs, then draw. The results stay open until closed: the next game
   * goes on behind them, and they say when this seat has a decision to make (results.js).
   */
  update() {
    const { info, seat, view, prompt, log, decl, rounds, lastOver } = this;
    sessionStorage.setItem(
      CACHE(this.id),
      JSON.stringify({ seq: this.conn.seq, info, seat, view, prompt, log, decl, rounds, lastOver }),
    );
    this.passSoon();
    this.render();
  }

  /** 自动过 (the player's choice, kept per browser): 过 by itself after a beat, so that the
   *  play it cannot beat is seen, when 过 is all this seat may do in the play (要不起). */
  passSoon() {
    const v = this.view;
    const cannot = this.decides() && v?.phase === "play" && v.legal.join() === "pass";
    if (!this.autoPass || !cannot || this.autoPassFor === this.viewKey) return;
    const key = (this.autoPassFor = this.viewKey);
    setTimeout(() => {
      if (this.autoPass && this.viewKey === key && this.decides()) this.pass();
    }, AUTO_PASS_MS);
  }

  toggleAutoPass() {
    this.autoPass = !this.autoPass;
    localStorage.setItem("bh.autopass", this.autoPass ? "on" : "off");
    this.passSoon();
    this.render();
  }

  /** 成绩: the last game's results again, with the match so far (or the match alone when
   * the last game's are not at hand). */
  openResults() {
    this.modal = this.lastOver
      ? { kind: "game", over: this.lastOver, reopened: true }
      : { kind: "match" };
    this.render();
  }

  closeResults() {
    this.modal = null;
    this.render();
  }

  render() {
    // The results window is drawn anew with the table under it: keep where it was scrolled.
    const scrolled = this.root.querySelector(".modal.results")?.scrollTop;
    renderTable(this);
    const modal = this.root.querySelector(".modal.results");
    if (modal && scrolled) modal.scrollTop = scrolled;
    this.flight = fly(this.root, this.flight);
  }

  tickClock() {
    for (const el of this.root.querySelectorAll(".clock")) showClock(el, this.secondsLeft());
  }

  // ------------------------------------------------------------ derived state

  /** A seat's name (the one given, else the one sitting there now), "(you)" for this seat; a
   * bot's in the page's language (机器人3 / Bot 3, after its seat, counted from 1). */
  seatName(s, name = this.info?.seats?.[s]?.name) {
    const sitting = this.info?.seats?.[s];
    const bot = sitting?.bot && name === sitting.name;
    return this.nameOf(bot ? sitting : name == null ? null : { name }, s);
  }

  /** Seat `s` named after `seat` ({name, bot}; null: nobody), in the page's language. */
  nameOf(seat, s) {
    const shown = seat?.bot
      ? t("bot.name", { seat: s + 1 })
      : (seat?.name ?? t("seat", { seat: s + 1 }));
    return s === this.seat ? t("seat.me", { name: shown }) : shown;
  }

  /** Who sits where now, as a log line keeps it. */
  seatsNow() {
    return (this.info?.seats ?? []).map((seat) => seat && { name: seat.name, bot: seat.bot });
  }

  hand() {
    return this.view?.hand ? sortCards(this.view.hand) : [];
  }

  /** This seat is to act (and is not waiting for the answer to its last action). */
  myTurn() {
    return (
      !this.busy &&
      this.seat !== null &&
      this.view?.turn === this.seat &&
      this.view.legal.length > 0
    );
  }

  /** The selection in rank notation, and whether it is legal now. */
  selection() {
    const hand = this.hand();
    const cards = [...this.selected].sort((a, b) => a - b).map((i) => hand[i]);
    const play = playText(cards, this.info.rules);
    const legal =
      this.myTurn() &&
      this.view.phase === "play" &&
      play !== null &&
      this.view.legal.includes(play);
    return { cards, play, legal };
  }

  canPass() {
    return this.myTurn() && this.view.phase === "play" && this.view.legal.includes("pass");
  }

  /** Whole seconds left on the server's turn clock, or null when none runs. */
  secondsLeft() {
    if (!this.clock) return null;
    return Math.max(0, Math.ceil((this.clock.deadline - Date.now()) / 1000));
  }

  // ------------------------------------------------------------ commands

  async send(op, fields = {}) {
    try {
      return await this.conn.command(op, fields);
    } catch (err) {
      toast(errorText(err), "error");
      return null;
    }
  }

  async sit(seat) {
    const ack = await this.send("sit", { seat });
    if (!ack) return;
    if (ack.token) tokens.set(this.id, ack.token);
    this.seat = ack.seat ?? seat;
    this.update();
  }

  async leave() {
    if (this.info?.status === "playing" && !window.confirm(t("confirm.escape"))) return;
    try {
      await this.conn.command("leave");
    } catch (err) {
      if (err.code !== "not_seated") {
        toast(errorText(err), "error");
        return;
      }
    }
    tokens.drop(this.id);
    this.seat = null;
    this.view = null;
    this.prompt = null;
    this.conn.reconnect(null); // watch from here on: a spectator's snapshot
    this.update();
  }

  async act(action) {
    if (this.busy) return;
    this.busy = true;
    this.render();
    const ack = await this.send("act", { action });
    this.busy = false;
    if (ack) {
      this.selected.clear();
      this.suggested = null;
    }
    this.render();
  }

  play() {
    const { cards, legal } = this.selection();
    if (legal) this.act(cards.join(" "));
  }

  pass() {
    if (this.canPass()) this.act("pass");
  }

  /** 提示: the heuristic's move first; pressed again at the same turn, each other legal play
   * in turn (the legal list's order), then round again. */
  async hint() {
    if (!this.myTurn()) return;
    const seq = this.view.seq;
    let text;
    if (this.hints?.seq === seq && this.hints.list.length > 1) {
      this.hints.at = (this.hints.at + 1) % this.hints.list.length;
      text = this.hints.list[this.hints.at];
    } else {
      const ack = await this.send("hint");
      if (!ack?.hint) return;
      text = ack.hint;
      this.hints = { seq, list: [text, ...this.otherPlays(text)], at: 0 };
    }
    const picked =
      this.view.phase === "play" && text !== "pass"
        ? pickCards(text, this.hand(), this.view.called)
        : null;
    if (picked) {
      this.selected = new Set(picked);
      this.cursor = Math.min(...picked);
      this.suggested = null;
    } else {
      this.suggested = text;
    }
    this.render();
  }

  /** The legal plays (rank notation) other than the cards of `hinted`, for 提示 to cycle. */
  otherPlays(hinted) {
    if (this.view.phase !== "play") return [];
    const hand = this.hand();
    const key = (text) => (pickCards(text, hand, this.view.called) || []).sort().join();
    const first = hinted === "pass" ? "" : key(hinted);
    const plays = this.view.legal.filter((a) => a !== "pass" && key(a) && key(a) !== first);
    return hinted === "pass" ? plays : [...plays, ...(this.view.legal.includes("pass") ? ["pass"] : [])];
  }

  toggle(i) {
    if (this.selected.has(i)) this.selected.delete(i);
    else this.selected.add(i);
    this.cursor = i;
    this.render();
  }

  /** Select every card of the rank at hand index `i` (double click). */
  selectRank(i) {
    const hand = this.hand();
    const rank = hand[i][0];
    hand.forEach((c, k) => c[0] === rank && this.selected.add(k));
    this.render();
  }

  toggleCounter() {
    this.showCounter = !this.showCounter;
    localStorage.setItem("bh.counter", this.showCounter ? "on" : "off");
    this.render();
  }

  // ------------------------------------------------------------ keyboard

  onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.target.closest?.("input, select, textarea"))
      return;
    if (ev.target.closest?.("button, a") && (ev.key === "Enter" || ev.key === " ")) return;
    const size = this.hand().length;
    const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    if (key === "ArrowLeft" || key === "ArrowRight") {
      if (!size) return;
      this.cursor = Math.max(0, Math.min(size - 1, this.cursor + (key === "ArrowLeft" ? -1 : 1)));
      this.render();
    } else if (key === " ") {
      if (size) this.toggle(this.cursor);
    } else if (key === "Enter") this.play();
    else if (key === "p") this.pass();
    else if (key === "h") this.hint();
    else if (key === "l") this.toggleRounds();
    else if (key === "Escape") {
      this.selected.clear();
      this.modal = null;
      this.menu = false;
      this.roundsOpen = false;
      this.render();
    } else return;
    ev.preventDefault();
  }
}

/** The table page for `#/table/ID`; returns its cleanup. */
export async function tablePage(root, { id }, redraw) {
  if (!session.user) {
    mount(
      root,
      h("div", { class: "lobby" }, h("p", { class: "note" }, t("login.needed")), loginBox(redraw)),
    );
    return () => {};
  }
  const { signals } = await loadPresets();
  const page = new TablePage(root, id, signals);
  return () => page.destroy();
}
