// Sounds, made with the Web Audio API (short oscillator notes; no files): a play, a pass, your
// turn, game over (won or lost). On by default, muted with the 🔊/🔇 button, the choice kept in
// localStorage ("bh.sound"). The AudioContext starts on the first click or key press (browsers
// let no page make a sound before one), and no missing or failing audio ever throws.
// For tests: every sound made is the page root's data-last-sound, and is added to
// window.__bhSounds when localStorage["bh.sound.trace"] is "on".

import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "bh.sound";
let ctx = null;

/** Whether sounds are on (the remembered choice, default on). */
export function soundOn() {
  try {
    return localStorage.getItem(KEY) !== "off";
  } catch {
    return true;
  }
}

export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    // storage refused: the choice lasts for this page only
  }
  if (on) unlock();
}

/** Start (or resume) the audio context; only ever called on a user gesture. */
function unlock() {
  try {
    if (!ctx) {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      ctx = new Ctx();
    }
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
  } catch {
    ctx = null;
  }
}

for (const kind of ["pointerdown", "keydown"]) {
  window.addEventListener(kind, () => soundOn() && unlock(), { capture: true, passive: true });
}

/** One note: `type` wave from `freq` (gliding to `to`), starting `at` s from now, `len` s. */
function note(freq, { at = 0, len = 0.12, type = "sine", gain = 0.2, to = null } = {}) {
  const start = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, start + len);
  amp.gain.setValueAtTime(0.0001, start);
  amp.gain.exponentialRampToValueAtTime(gain, start + 0.008);
  amp.gain.exponentialRampToValueAtTime(0.0001, start + len);
  osc.connect(amp).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + len + 0.02);
}

const TUNES = {
  // a card slapped on the felt: a quick falling knock
  play: () => {
    note(420, { len: 0.09, type: "triangle", gain: 0.28, to: 160 });
    note(1800, { len: 0.03, type: "square", gain: 0.03, to: 900 });
  },
  // a soft low "no"
  pass: () => {
    note(330, { len: 0.1, gain: 0.12 });
    note(247, { at: 0.09, len: 0.14, gain: 0.12 });
  },
  // your turn: a bright two-note chime
  turn: () => {
    note(880, { len: 0.16, gain: 0.14 });
    note(1318.5, { at: 0.11, len: 0.24, gain: 0.14 });
  },
  win: () =>
    [523.25, 659.25, 783.99, 1046.5].forEach((f, i) =>
      note(f, { at: i * 0.11, len: i === 3 ? 0.45 : 0.16, type: "triangle", gain: 0.2 }),
    ),
  lose: () =>
    [392, 311.13, 261.63].forEach((f, i) =>
      note(f, { at: i * 0.16, len: i === 2 ? 0.5 : 0.2, type: "triangle", gain: 0.18 }),
    ),
};

/**
 * Make sound `name` ("play", "pass", "turn", "over"; `won` picks game over's tune) unless muted.
 * Never throws.
 */
export function sound(name, { won = true } = {}) {
  if (!soundOn()) return;
  try {
    document.documentElement.dataset.lastSound = name;
    if (localStorage.getItem(`${KEY}.trace`) === "on") (window.__bhSounds ||= []).push(name);
  } catch {
    // no storage: no trace
  }
  if (!ctx || ctx.state !== "running") return; // no gesture yet, or no audio here
  try {
    (TUNES[name === "over" ? (won ? "win" : "lose") : name] || (() => {}))();
  } catch {
    // audio failed: play on in silence
  }
}

/** A speaker (🔊), struck through when muted (🔇): drawn, as not every system has emoji. */
function speaker(on) {
  const path = (d, fill = "none") =>
    h("svg:path", {
      d,
      fill,
      stroke: "currentColor",
      "stroke-width": "2",
      "stroke-linecap": "round",
      "stroke-linejoin": "round",
    });
  return h(
    "svg:svg",
    { class: "speaker", viewBox: "0 0 24 24", width: "18", height: "18", "aria-hidden": "true" },
    path("M4 9.5v5h3.5l4.5 4v-13l-4.5 4z", "currentColor"),
    on
      ? [path("M15.5 9a4 4 0 0 1 0 6"), path("M18 6.5a7.5 7.5 0 0 1 0 11")]
      : [path("M16 9.5l5 5"), path("M21 9.5l-5 5")],
  );
}

/** The 🔊/🔇 toggle for the table's top bar; redraws the page `p` when pressed. */
export function soundButton(p) {
  const on = soundOn();
  const label = t(on ? "sound.mute" : "sound.unmute");
  return h(
    "button",
    {
      class: `sound${on ? "" : " muted"}`,
      "aria-pressed": String(on),
      "data-sound": on ? "on" : "off",
      "aria-label": t("sound"),
      title: label,
      onclick: () => {
        setSound(!on);
        p.render();
      },
    },
    speaker(on),
  );
}
