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
