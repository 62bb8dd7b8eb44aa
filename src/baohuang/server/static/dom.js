// Tiny DOM helpers: h() builds elements, toast() shows a passing message.

/**
 * h("button", {class: "x", onclick: fn, disabled: true}, "text", child, [more]) -> element.
 * Attributes: "class", "text", on* listeners, dataset via
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
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
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

/** A short message at the bottom of the screen; kind "error" shows it in red. */
export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  const item = h("div", { class: `toast ${kind}`, role: "status" }, text);
  box.append(item);
  setTimeout(() => item.remove(), kind === "error" ? 6000 : 3500);
}
