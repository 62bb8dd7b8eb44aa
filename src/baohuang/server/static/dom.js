// Tiny DOM helpers: h() builds elements, patch() redraws in place, toast() shows a passing
// message.

/** The listeners h() added to each element, so that patch() can move them. */
const LISTENERS = new WeakMap();

/** Attributes set on the live element by other scripts (motion.js), not by the drawing. */
const LIVE = new Set(["data-animating"]);

/** Elements whose value the drawing sets (unless the user is typing in them). */
const FIELDS = new Set(["INPUT", "SELECT", "TEXTAREA"]);

/**
 * h("button", {class: "x", onclick: fn, disabled: true}, "text", child, [more]) -> element.
 * Attributes: "class", "text", "html" (trusted markup only), on* listeners, dataset via
 * "data-*", booleans set or drop the attribute; null/false/undefined children are skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const svg = tag.startsWith("svg:");
  const el = svg
    ? document.createElementNS("http://www.w3.org/2000/svg", tag.slice(4))
    : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.setAttribute("class", value);
    else if (key === "text") el.textContent = value;
    else if (key === "html") el.innerHTML = value;
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
      LISTENERS.set(el, [...(LISTENERS.get(el) ?? []), [key.slice(2), value]]);
    } else if (key === "value" && !svg) el.value = value;
    else if (key === "checked" && !svg) el.checked = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** Replace the children of `el`. */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * Make `el`'s children the ones given, as mount() does, but keep the elements already there
 * where the new drawing has an element of the same tag (and the same data-key) at the same
 * place, updating their attributes, listeners and children. A button under the pointer stays
 * the same button across a redraw, so a press before it and a release after it still click;
 * focus, text selection and scroll stay too.
 */
export function patch(el, ...children) {
  const drawn = document.createDocumentFragment();
  append(drawn, children);
  sync(el, [...drawn.childNodes]);
  return el;
}

function sync(el, drawn) {
  drawn.forEach((node, i) => {
    const old = el.childNodes[i];
    if (old && alike(old, node)) update(old, node);
    else el.insertBefore(node, old ?? null);
  });
  while (el.childNodes.length > drawn.length) el.lastChild.remove();
}

function alike(old, node) {
  return (
    old.nodeType === node.nodeType &&
    old.nodeName === node.nodeName &&
    (old.nodeType !== Node.ELEMENT_NODE || old.dataset?.key === node.dataset?.key)
  );
}

function update(old, node) {
  if (old.nodeType !== Node.ELEMENT_NODE) {
    if (old.nodeValue !== node.nodeValue) old.nodeValue = node.nodeValue;
    return;
  }
  for (const { name } of [...old.attributes]) {
    if (!node.hasAttribute(name) && !LIVE.has(name)) old.removeAttribute(name);
  }
  for (const { name, value } of node.attributes) {
    if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  }
  if (FIELDS.has(old.nodeName) && old !== document.activeElement) {
    if (old.value !== node.value) old.value = node.value;
    old.checked = node.checked;
  }
  for (const [type, listener] of LISTENERS.get(old) ?? []) old.removeEventListener(type, listener);
  for (const [type, listener] of LISTENERS.get(node) ?? []) old.addEventListener(type, listener);
  LISTENERS.set(old, LISTENERS.get(node) ?? []);
  sync(old, [...node.childNodes]);
}

/** A short message at the bottom of the screen; kind "error" shows it in red. */
export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  const item = h("div", { class: `toast ${kind}`, role: "status" }, text);
  box.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 6000 : 3500);
}
