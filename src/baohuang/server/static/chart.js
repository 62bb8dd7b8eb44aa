// A small line chart in SVG (no library): the 复盘's expected points, the 段位 history.

const SVG = "http://www.w3.org/2000/svg";

export function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** `values` as a line from left to right, with a zero line, labelled `label`, in a chart of
 *  class `cls`; `marked(i)` values get a dot. Returns the chart and its `x`, `y` scales. */
export function lineChart(values, { cls, label, marked = () => false, width = 480, height = 120 }) {
  const pad = 8;
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  const span = high - low || 1;
  const x = (i) => pad + (i * (width - 2 * pad)) / Math.max(1, values.length - 1);
  const y = (v) => height - pad - ((v - low) * (height - 2 * pad)) / span;
  const box = svg("svg", {
    class: `chart ${cls}`,
    viewBox: `0 0 ${width} ${height}`,
    role: "img",
    "aria-label": label,
  });
  box.append(svg("line", { x1: pad, x2: width - pad, y1: y(0), y2: y(0), class: "zero" }));
  const points = values.map((v, i) => `${x(i)},${y(v)}`).join(" ");
  box.append(svg("polyline", { points, class: "outlook" }));
  values.forEach((v, i) => {
    if (marked(i)) box.append(svg("circle", { cx: x(i), cy: y(v), r: 4, class: "slip" }));
  });
  return box;
}
