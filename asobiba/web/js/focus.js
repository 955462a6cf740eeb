// Keyboard focus that survives redraws: every update replaces the board, which used to drop
// the focus back to the page (five Tabs to the board each turn). We remember what had the
// focus in the board or the move panel and put it back on the same target, else on the
// board's first target, else on the board itself.

const ATTRS = ["data-move", "data-attack", "data-pick", "data-from", "data-write", "data-step"];
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
    node.focus({ preventScroll: true });
    remembered = describe(node) || want;
  }
}
