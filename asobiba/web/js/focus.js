// Keyboard focus that survives redraws: every update replaces the board, which used to drop
// the focus back to the page (five Tabs to the board each turn). We remember what had the
// focus in the board or the move panel and put it back on the same target, else on the
// board's first target, else on the board itself.

const ATTRS = ["data-move", "data-attack", "data-pick", "data-from", "data-write", "data-step", "data-at"];
const REGIONS = ["board", "legal", "movelog"];
let remembered = null; // {region, attr, value} of the last focused thing in a region

function regionOf(node) {
  for (const id of REGIONS) {
    const box = document.getElementById(id);
    if (box && (box === node || box.contains(node))) return id;
  }
  return null;
}

function describe(node) {
  const region = regionOf(node);
  if (!region) return null;
  for (const attr of ATTRS) if (node.hasAttribute && node.hasAttribute(attr)) return { region, attr, value: node.getAttribute(attr) };
  return { region, attr: null, value: null };
}

export function watchFocus() {
  document.addEventListener("focusin", (e) => {
    remembered = describe(e.target);
  });
  document.addEventListener("focusout", (e) => {
    // a deliberate move elsewhere (the node stays in the page) forgets; a redraw (the node
    // leaves the page) keeps the memory so the focus can come back
    const node = e.target;
    setTimeout(() => {
      if (node.isConnected && !regionOf(document.activeElement)) remembered = null;
    }, 0);
  });
}

/** After a redraw: put the focus back if it was in the board, the move panel or the list. */
export function restoreFocus() {
  if (!remembered) return;
  const active = document.activeElement;
  const board = document.getElementById("board");
  // the board itself holds the focus only while it offers nothing (the other side's turn)
  if (active && active !== document.body && active !== board && active.isConnected) return;
  const want = remembered;
  const box = document.getElementById(want.region);
  let node = null;
  if (want.attr) {
    for (const id of REGIONS) {
      const found = [...document.getElementById(id).querySelectorAll(`[${want.attr}]`)].find((n) => n.getAttribute(want.attr) === want.value);
      if (found) {
        node = found;
        break;
      }
    }
  }
  if (!node && want.region !== "movelog") node = document.querySelector("#board [data-move], #board [tabindex='0'], #legal [data-move]");
  if (!node) node = want.region === "movelog" ? box : board;
  if (node === active) return;
  if (node) {
    const found = want.attr && node.getAttribute(want.attr) === want.value;
    node.focus({ preventScroll: true });
    // a stand-in (the target played is gone, the board offers nothing now) keeps the wish:
    // on the next turn the focus goes to a move again, not to the cell that stood in
    remembered = found || want.region === "movelog" ? describe(node) || want : want;
  }
}

let lastFocused = null; // the last element that had the focus anywhere on the page

document.addEventListener("focusin", (e) => {
  lastFocused = e.target;
});

/** After a redraw or a choice: the element that had the focus was taken away or hidden (a
 * button that did its job — Offer a draw, Back to the game, an answered request, the
 * hand-over) and the focus fell to the page's body. Put it on the nearest thing of use: the
 * move list's entry on screen when it was near the list, else the board's target or cursor,
 * else the board. A person's own click on the page's background is left alone. */
export function keepFocus() {
  const active = document.activeElement;
  const lost = !active || active === document.body || !active.isConnected || (active.checkVisibility && !active.checkVisibility());
  if (!lost || !lastFocused) return;
  if (lastFocused.isConnected && (!lastFocused.checkVisibility || lastFocused.checkVisibility()) && lastFocused !== active) return;
  const nearLog = lastFocused.closest && lastFocused.closest("#log-panel");
  const node = (nearLog && document.querySelector("#movelog [aria-current='step']"))
    || document.querySelector("#board [data-move], #board [tabindex='0'], #legal [data-move], #handover-go:not([hidden])")
    || document.getElementById("board");
  if (node && node.getClientRects().length) node.focus({ preventScroll: true });
  else if (node) document.getElementById("board").focus({ preventScroll: true });
}
