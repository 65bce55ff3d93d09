// Pictures of positions, drawn by the table's own renderer (render.js) from a game's scene: the rules pages'
// diagrams (figures the server writes with the scene inside, server/pictures.py) and the lobby's game pictures.

import { MIN_LABEL_PX, renderScene } from "./render.js";

// The drawn board as wide as its box and never taller than maxHeight CSS pixels (render.js sizes a table's board
// to the screen; a picture in a page has its own size).
function sizeBoard(view, maxHeight) {
  const board = view.querySelector(".board-wrap > svg");
  if (!board || !board.viewBox || !board.viewBox.baseVal) return;
  const vb = board.viewBox.baseVal;
  if (!(vb.width > 0 && vb.height > 0)) return;
  const wrap = board.parentElement;
  const cs = getComputedStyle(wrap);
  const room = wrap.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  const aspect = vb.width / vb.height;
  const w = Math.max(40, Math.min(room, maxHeight * aspect));
  board.style.width = `${w}px`;
  board.style.height = `${w / aspect}px`;
  board.style.maxHeight = "none";
  // coordinates readable at this size, as render.js keeps them at a table (at least 10.5 CSS pixels high)
  const scale = w / vb.width;
  for (const t of board.querySelectorAll("text.coord")) {
    t.setAttribute("font-size", Math.max(Number(t.dataset.size) || 0, MIN_LABEL_PX / scale));
  }
}

function diagramHeight() {
  return Math.min(460, Math.max(240, window.innerHeight * 0.55));
}

// Every figure.diagram under root drawn once (its scene is the JSON in its script.diagram-scene).
export function drawDiagrams(root) {
  const figures = [...root.querySelectorAll("figure.diagram")];
  for (const fig of figures) {
    const view = fig.querySelector(".diagram-view");
    const data = fig.querySelector("script.diagram-scene");
    if (!view || !data || fig.dataset.drawn) continue;
    try {
      renderScene(view, JSON.parse(data.textContent), { interactive: false });
      fig.dataset.drawn = "1";
    } catch (e) {
      view.textContent = `This diagram could not be drawn (${e.message}).`;
    }
    sizeBoard(view, diagramHeight());
  }
  if (!root.diagramsResize) {
    root.diagramsResize = true;
    window.addEventListener("resize", () => {
      for (const fig of root.querySelectorAll("figure.diagram .diagram-view")) sizeBoard(fig, diagramHeight());
    });
  }
  return figures.length;
}

// A small picture of a game in host: its board where it has one, else its hands and piles, shrunk to fit.
export function drawThumbnail(host, scene, height = 150) {
  const view = document.createElement("div");
  view.className = "thumb-view";
  view.innerHTML = "<div class='board-wrap'></div><div class='zones'></div>";
  host.replaceChildren(view);
  renderScene(view, scene, { interactive: false });
  const hasBoard = (scene.cells || []).length || (scene.edges || []).length;
  if (hasBoard) {
    view.querySelector(".zones").remove();
    sizeBoard(view, height);
  } else {
    view.classList.add("zones-only");
  }
  host.dataset.drawn = "1";
}
