// Clicks that a redraw would lose. Pages draw themselves anew when something happens (the table
// at every move, the lobby's list every few seconds), and the browser clicks only where a press
// and its release fall on the same element: press 出牌, a bot plays, release, and nothing happens.
// Here such a release clicks the element drawn where the pressed one was (the same place in the
// page, the same tag and text), as a person expects; the elements themselves stay simple.

/** What a person clicks: buttons, cards in the hand, menu items. */
const CLICKABLE = "button, .card, [role=menuitem]";

/** Where `el` is in the page and what it says: equal for an element and its redrawn twin. */
function place(el) {
  const steps = [];
  for (let node = el; node.parentElement; node = node.parentElement) {
    steps.push(`${node.tagName}${[...node.parentElement.children].indexOf(node)}`);
  }
  return `${steps.join("<")}|${el.textContent}`;
}

let pressed = null;

function press(ev) {
  const el = ev.button === 0 && ev.target.closest?.(CLICKABLE);
  pressed = el ? { el, place: place(el) } : null;
}

function release(ev) {
  const was = pressed;
  pressed = null;
  if (!was || was.el.isConnected || ev.button !== 0) return;
  const el = document.elementFromPoint(ev.clientX, ev.clientY)?.closest(CLICKABLE);
  if (!el || el.matches(":disabled") || place(el) !== was.place) return;
  const { clientX, clientY, screenX, screenY, shiftKey, ctrlKey, altKey, metaKey } = ev;
  el.dispatchEvent(
    new MouseEvent("click", {
      bubbles: true,
      cancelable: true,
      composed: true,
      view: window,
      detail: 1,
      ...{ clientX, clientY, screenX, screenY, shiftKey, ctrlKey, altKey, metaKey },
    }),
  );
}

/** Watch every press and release on the page (once, from app.js). */
export function keepClicks() {
  document.addEventListener("pointerdown", press, { capture: true, passive: true });
  document.addEventListener("pointerup", release, { capture: true, passive: true });
  document.addEventListener("pointercancel", () => (pressed = null), { capture: true });
}
