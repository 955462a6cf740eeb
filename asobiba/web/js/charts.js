// Small SVG line charts (no chart library): the rating history on the player page and the
// winning chance through a reviewed game. Each chart is one <svg role="img"> with a name and
// a text list beside it for screen readers.
import { svg } from "./util.js";

const W = 600;
const H = 180;
const PAD = { l: 44, r: 10, t: 10, b: 24 };
const COLOURS = ["#b5322a", "#1b5fd1", "#2e9b4f", "#8a5bb5", "#c98a00", "#555"];

/** ``series``: [{name, points: [[x, y], …]}]; ``y``: [min, max] or null (fit the data).
 * A point whose y is null has no value: the line leaves a gap there (no dot, no segment to
 * or from it) rather than drawing a made-up 0. */
export function lineChart({ series, y = null, label, yTicks = 4, format = (v) => String(Math.round(v)), onPick = null, mid = null }) {
  const all = series.flatMap((s) => s.points);
  const xs = all.map((p) => p[0]);
  const ys = all.map((p) => p[1]).filter((v) => v !== null && v !== undefined);
  if (!ys.length) ys.push(0);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs, Math.min(...xs) + 1)];
  let [y0, y1] = y || [Math.min(...ys), Math.max(...ys)];
  if (y0 === y1) [y0, y1] = [y0 - 50, y1 + 50];
  const px = (x) => PAD.l + ((x - x0) / (x1 - x0)) * (W - PAD.l - PAD.r);
  const py = (v) => H - PAD.b - ((v - y0) / (y1 - y0)) * (H - PAD.t - PAD.b);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": label });
  for (let k = 0; k <= yTicks; k++) {
    const v = y0 + ((y1 - y0) * k) / yTicks;
    root.append(svg("line", { x1: PAD.l, x2: W - PAD.r, y1: py(v), y2: py(v), class: "grid" }));
    root.append(svg("text", { x: PAD.l - 4, y: py(v) + 4, class: "tick", "text-anchor": "end" }, format(v)));
  }
  if (mid !== null) root.append(svg("line", { x1: PAD.l, x2: W - PAD.r, y1: py(mid), y2: py(mid), class: "mid" }));
  series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length];
    // one polyline per run of points with a value
    const runs = [[]];
    for (const [x, v] of s.points) {
      if (v === null || v === undefined) {
        if (runs[runs.length - 1].length) runs.push([]);
      } else runs[runs.length - 1].push(`${px(x).toFixed(1)},${py(v).toFixed(1)}`);
    }
    for (const run of runs.filter((r) => r.length)) {
      root.append(svg("polyline", { points: run.join(" "), fill: "none", stroke: colour, "stroke-width": 2.5, "data-series": s.name }));
    }
    for (const [x, v] of s.points) {
      if (v === null || v === undefined) continue;
      const dot = svg("circle", { cx: px(x), cy: py(v), r: 3.5, fill: colour, "data-x": x });
      if (onPick) {
        dot.classList.add("pick");
        dot.addEventListener("click", () => onPick(x));
      }
      root.append(dot);
    }
  });
  return root;
}
