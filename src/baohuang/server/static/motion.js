// Motion: a play flies from the seat that made it to the centre of the table (Web Animations
// API, about a quarter of a second). Nothing moves under `prefers-reduced-motion: reduce`.
// For tests, the page root counts the flights started (data-motions) and those skipped for
// reduced motion (data-motions-skipped); the cards carry data-animating while they fly.

const DURATION = 260;

function reduced() {
  return !!window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
}

function count(name) {
  const root = document.documentElement;
  root.dataset[name] = String(Number(root.dataset[name] || 0) + 1);
}

/** A flight to start now: the play `seat` just made. */
export function newFlight(seat) {
  return { seat, at: performance.now(), started: false };
}

/**
 * Fly the play drawn in `root`'s centre (.play-area .lead-cards) from its seat's box. Call it
 * after every drawing: a flight cut short by a new drawing goes on where it was. Returns the
 * flight while it lasts, else null. Never throws.
 */
export function fly(root, flight) {
  if (!flight) return null;
  try {
    const elapsed = performance.now() - flight.at;
    if (elapsed >= DURATION) return null;
    const target = root.querySelector(".play-area:not(.kept-round) .lead-cards");
    const from = root.querySelector(`.seat[data-seat='${flight.seat}']`);
    if (!target || !from) return null;
    if (reduced()) {
      count("motionsSkipped");
      return null;
    }
    if (typeof target.animate !== "function") return null;
    if (target.dataset.animating) return flight; // still flying in this drawing
    const a = from.getBoundingClientRect();
    const b = target.getBoundingClientRect();
    const dx = a.left + a.width / 2 - (b.left + b.width / 2);
    const dy = a.top + a.height / 2 - (b.top + b.height / 2);
    target.dataset.animating = "play";
    if (!flight.started) count("motions");
    flight.started = true;
    const animation = target.animate(
      [
        { transform: `translate(${dx}px, ${dy}px) scale(0.55)`, opacity: 0.2 },
        { transform: "translate(0, 0) scale(1)", opacity: 1 },
      ],
      { duration: DURATION, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" },
    );
    animation.currentTime = elapsed;
    const done = () => delete target.dataset.animating;
    animation.onfinish = done;
    animation.oncancel = done;
    return flight;
  } catch {
    return null; // a page without layout (or without the API): no motion
  }
}
