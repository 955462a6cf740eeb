// Drawing code shared by the game renderers (asobiba/web/games/*.js): the two-step picker
// (pick a card, cell or piece, then the move), a square grid's coordinates and cells, and the
// clickable hint of a legal move. Each renderer keeps only what is its game's own.
import { pickTarget, svg } from "./util.js";

/** A two-step choice remembered across redraws of one position: ``reset(key)`` forgets the
 * pick when the position (or the seat shown) changes; ``target`` makes a shape pick or
 * un-pick ``value``, redraws the renderer's whole drawing and puts the keyboard focus on the
 * first move of the pad the pick opened (or back on the shape when there is none). */
export function picker() {
  let picked = null;
  let pickedFor = "";
  return {
    get value() {
      return picked;
    },
    reset(key) {
      if (pickedFor !== key) {
        picked = null;
        pickedFor = key;
      }
    },
    /** ``drawing`` is the element the renderer returned; ``render()`` draws it again. */
    target(node, attr, value, label, drawing, render) {
      return pickTarget(node, attr, value, label, picked === value, () => {
        picked = picked === value ? null : value;
        const again = render();
        drawing.replaceWith(again);
        const pad = picked ? again.querySelector(".move-pad [data-move], .pad[data-move]") : null;
        const focus = pad || again.querySelector(`[${attr}="${value}"]`);
        if (focus) focus.focus();
      });
    },
  };
}

/** The top-left corner of cell (row, col) of a square grid drawn ``pad`` from the edge. */
export function cellAt(row, col, cell, pad) {
  return [pad + col * cell, pad + row * cell];
}

/** File letters above and rank labels left of a grid (hidden from screen readers: every
 * cell is named on its own). ``file(c)`` and ``rank(r)`` give the labels; ``gap`` lifts the
 * letters off the grid, ``rise`` centres the numbers on their row (both by font size). */
export function coordinates(root, { cols, rows, cell, pad, file, rank, gap = 4, rise = 4 }) {
  for (let c = 0; c < cols; c++) root.append(svg("text", { x: pad + c * cell + cell / 2, y: pad - gap, class: "coord", "aria-hidden": "true" }, file(c)));
  for (let r = 0; r < rows; r++) root.append(svg("text", { x: pad / 2, y: pad + r * cell + cell / 2 + rise, class: "coord", "aria-hidden": "true" }, rank(r)));
}

/** The clickable area of a legal move on one cell: the whole (transparent) cell, plus the
 * marks drawn on it. Pass it to moveTarget or a picker's target. */
export function cellHit(x, y, cell, ...marks) {
  return svg("g", {}, svg("rect", { x, y, width: cell, height: cell, class: "hit" }), ...marks);
}

/** The round hint of a legal move at the centre of a cell (radius ``r``, more attributes). */
export function hintDot(x, y, cell, r, attrs = {}) {
  return svg("circle", { cx: x + cell / 2, cy: y + cell / 2, r, class: "hint", ...attrs });
}

/** A grid's file letter: a, b, c… from the left (square names like "c4"). */
export function fileLetter(col) {
  return String.fromCharCode(97 + col);
}

// ---- the keyboard cursor ------------------------------------------------------------------
// Each renderer marks one node per cell (a square, a hex, a card) with ``cursorAt``: the node
// a person acts on there (the move's target, the piece to pick) or, where nothing can be
// done, the cell itself with its name and content for a screen reader. The arrow keys move
// the focus — the visible cursor — over those nodes by where they are drawn, so every
// board's geometry is served by one rule:
//   Left / Right   the previous / next cell in reading order (left to right, then the next
//                  line: on a square board, past the row's end to the next row)
//   Up / Down      the line above / below, on the cell nearest the column the vertical run
//                  began in (like a text cursor: on ReverStarGo's hexagons, whose rows are
//                  offset by half a cell, repeated Up zig-zags up the same column)
//   Home / End     the first / last cell of the line
// Enter or Space acts on the cell: plays its move, or picks its piece or card (then the
// arrows reach the squares or the number pad that pick opened).

/** Mark ``node`` as the cursor's stop for the cell whose centre is (x, y). */
export function cursorAt(node, x, y) {
  node.setAttribute("data-at", `${Math.round(x)},${Math.round(y)}`);
  return node;
}

/** After each drawing: every cell focusable by script, and one Tab stop into the board even
 * when it offers no move (the first cell). */
export function armBoard(box) {
  const cells = [...box.querySelectorAll("[data-at]")];
  for (const c of cells) if (!c.hasAttribute("tabindex")) c.setAttribute("tabindex", "-1");
  if (cells.length && !box.querySelector("[tabindex='0']")) cells[0].setAttribute("tabindex", "0");
}

let sticky = null; // {at, x}: the column an Up/Down run began in, and the cell it reached

/** Arrow keys over the cells of the board in ``box`` (listened to once: the drawings change). */
export function boardKeys(box) {
  box.addEventListener("keydown", (e) => {
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(e.key)) return;
    const from = e.target.closest ? e.target.closest("[data-at]") : null;
    const cells = [...box.querySelectorAll("[data-at]")].filter((c) => c.getClientRects().length);
    if (!cells.length) return;
    armBoard(box); // a pick redraws the board between two drawings of the page
    const pos = (c) => c.getAttribute("data-at").split(",").map(Number);
    const order = cells.map((c) => [c, ...pos(c)]).sort((a, b) => a[2] - b[2] || a[1] - b[1]);
    e.preventDefault();
    if (!from || !cells.includes(from)) {
      order[0][0].focus();
      return;
    }
    const [fx, fy] = pos(from);
    const k = order.findIndex(([c]) => c === from);
    const lines = [...new Set(order.map((o) => o[2]))];
    const line = (y) => order.filter((o) => o[2] === y);
    let to = null;
    if (e.key === "ArrowLeft") to = order[Math.max(0, k - 1)];
    else if (e.key === "ArrowRight") to = order[Math.min(order.length - 1, k + 1)];
    else if (e.key === "Home") to = line(fy)[0];
    else if (e.key === "End") to = line(fy).slice(-1)[0];
    else {
      const at = from.getAttribute("data-at");
      const x = sticky && sticky.at === at ? sticky.x : fx;
      const li = lines.indexOf(fy) + (e.key === "ArrowUp" ? -1 : 1);
      if (li >= 0 && li < lines.length) {
        to = line(lines[li]).reduce((best, o) => (Math.abs(o[1] - x) < Math.abs(best[1] - x) ? o : best));
        sticky = { at: to[0].getAttribute("data-at"), x };
      }
    }
    if (to && to[0] !== from) to[0].focus();
  });
}
