// The generic scene renderer: draws exactly what a game's scene describes (the schema: boardlab/core/scene.py,
// as JSON Schema in /static/scene.schema.json). Board places (polygons, points, edges), pieces and highlights go
// into SVG; card and dice zones into HTML rows whose items carry small SVG figures (cards 5:7 with corner value
// and suit, card backs in their owner's colour or their own, dice with pips, pictures); click targets call onAction(action)
// (several targets on one place open a small chooser); buttons and the full list of legal moves are plain HTML
// buttons. Nothing here knows any game.

import { el } from "./api.js";
import { drawIcon, inkOn, mirrored } from "./icons.js";

const SVGNS = "http://www.w3.org/2000/svg";
export const SEAT_COLOURS = ["#D55E00", "#0072B2", "#009E73", "#CC79A7"];
const PALETTE = {
  light: "#f4efe3",
  dark: "#c9b99a",
  blocked: "#8f8a80",
  neutral: "#e8e2d4",
  zone: "#d9d3c6",
  warning: "#f3d6d6",
  empty: "#f1ece1",
  water: "#cfe3f1",
  white: "#ffffff",
  black: "#2b2823",
  grey: "#a8a39a",
  gray: "#a8a39a",
};
const REGIONS = ["#cfe3f1", "#f6dcc4", "#d3ecd9", "#eadcef", "#f4efc1", "#dde3e8", "#f3d6d6", "#e2e8cf"];
const CELL_FILL = "#efe9dc";
const CELL_STROKE = "#a39a87";

export function colour(name, fallback) {
  if (name === null || name === undefined || name === "") return fallback;
  if (typeof name !== "string") return fallback;
  if (/^#[0-9a-fA-F]{3,8}$/.test(name)) return name;
  let m = /^seat(\d+)$/.exec(name);
  if (m) return SEAT_COLOURS[Number(m[1]) % SEAT_COLOURS.length];
  m = /^region(\d+)$/.exec(name);
  if (m) return REGIONS[Number(m[1]) % REGIONS.length];
  return PALETTE[name] || fallback;
}

// A cell's name in the board's quiet grey where that stands out from the cell (a contrast of at least 3, WCAG's bar
// for large text), else near-black on a light cell and white on a dark one (Train Boiler's deep blue and red).
const COORD_INK = "#8a8170";
function luminance(hex) {
  const m = /^#([0-9a-f]{6})$/i.exec(hex || "");
  if (!m) return null;
  const v = parseInt(m[1], 16);
  const lin = [16, 8, 0].map((k) => { const c = ((v >> k) & 255) / 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
}
export function coordInk(ground) {
  const g = luminance(ground);
  if (g === null) return COORD_INK;
  const grey = luminance(COORD_INK);
  const ratio = (Math.max(g, grey) + 0.05) / (Math.min(g, grey) + 0.05);
  if (ratio >= 3) return COORD_INK;
  return g > 0.257 ? "#3d372e" : "#ffffff";
}

let seatColours = SEAT_COLOURS;
let playerNames = [];

export function ownerColour(owner) {
  if (owner === null || owner === undefined) return "#5b5750";
  return seatColours[owner] || SEAT_COLOURS[((owner % 4) + 4) % 4];
}

// A seat's colour is its player's colour in the scene (games may give their sides other colours).
function useSeatColours(scene) {
  seatColours = SEAT_COLOURS.slice();
  playerNames = [];
  (scene.players || []).forEach((p, k) => {
    const seat = Number.isInteger(p.seat) ? p.seat : k;
    if (seat >= 0) {
      seatColours[seat] = colour(p.colour, SEAT_COLOURS[seat % SEAT_COLOURS.length]);
      playerNames[seat] = p.name;
    }
  });
}

// Live views send board shapes once (a "geometry", by id) and only fills/owners with each view.
const geometries = new Map();

export function rememberGeometry(g) {
  if (g && g.id) geometries.set(g.id, g);
}

export function hasGeometry(scene) {
  return !scene.geometry || geometries.has(scene.geometry);
}

export async function loadGeometry(id) {
  if (geometries.has(id)) return geometries.get(id);
  const res = await fetch(`/api/geometry/${encodeURIComponent(id)}`);
  if (!res.ok) throw new Error("the board could not be loaded");
  const g = await res.json();
  rememberGeometry(g);
  return g;
}

// The full scene (cells and edges back in place) from a compact one whose geometry is known.
export function expandScene(scene) {
  if (!scene.geometry) return scene;
  const g = geometries.get(scene.geometry);
  const fills = scene.cell_fills || [];
  const styles = scene.edge_styles || [];
  return {
    ...scene,
    cells: g.cells.map((c, i) => ({ ...c, fill: fills[i] ?? null })),
    edges: g.edges.map((e, i) => ({ ...e, owner: (styles[i] || [])[0] ?? null, stroke: (styles[i] || [])[1] ?? null })),
  };
}

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    node.setAttribute(k, String(v));
  }
  return node;
}

function pts(points) {
  return points.map((p) => `${p[0]},${p[1]}`).join(" ");
}

// Typical spacing between neighbouring places: sizes pieces, labels and strokes.
function unitOf(scene) {
  const centres = scene.cells.filter((c) => c.kind !== "area").map((c) => c.center); // areas lie over cells
  const sample = centres.slice(0, 160);
  let best = Infinity;
  for (let i = 0; i < sample.length; i++) {
    for (let j = 0; j < centres.length; j++) {
      if (i === j) continue;
      const dx = sample[i][0] - centres[j][0];
      const dy = sample[i][1] - centres[j][1];
      const d = Math.hypot(dx, dy);
      if (d > 1e-9 && d < best) best = d;
    }
  }
  if (!Number.isFinite(best)) {
    const vb = scene.viewbox || [0, 0, 10, 10];
    best = Math.min(vb[2], vb[3]) / 8 || 1;
  }
  return best;
}

function placeIndex(scene) {
  const places = new Map();
  for (const c of scene.cells) places.set(c.id, { type: "cell", c, at: c.center });
  for (const e of scene.edges) {
    places.set(e.id, { type: "edge", e, at: [(e.from[0] + e.to[0]) / 2, (e.from[1] + e.to[1]) / 2] });
  }
  return places;
}

function groupBy(list, key) {
  const m = new Map();
  for (const x of list) {
    const k = x[key];
    if (!m.has(k)) m.set(k, []);
    m.get(k).push(x);
  }
  return m;
}

function shapePath(shape, cx, cy, r) {
  switch (shape) {
    case "square":
    case "cube":
      return svg("rect", { x: cx - r * 0.85, y: cy - r * 0.85, width: r * 1.7, height: r * 1.7, rx: r * 0.18 });
    case "triangle":
      return svg("polygon", { points: pts([[cx, cy - r], [cx + r * 0.95, cy + r * 0.7], [cx - r * 0.95, cy + r * 0.7]]) });
    case "diamond":
      return svg("polygon", { points: pts([[cx, cy - r], [cx + r, cy], [cx, cy + r], [cx - r, cy]]) });
    case "hex":
    case "hexagon": {
      const p = [];
      for (let k = 0; k < 6; k++) {
        const a = (Math.PI / 3) * k + Math.PI / 6;
        p.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
      }
      return svg("polygon", { points: pts(p) });
    }
    default:
      return svg("circle", { cx, cy, r });
  }
}

// A face-down piece or card shows whose it is (its owner's colour) and nothing else.
const NEUTRAL_BACK = "#6d675d";

function backColour(owner) {
  return owner === null || owner === undefined ? NEUTRAL_BACK : ownerColour(owner);
}

// A face-down item's back: its own colour where the scene gives one (a card whose back shows its class),
// else its owner's.
function itemBack(it, zoneOwner) {
  return it.colour ? colour(it.colour, backColour(it.owner ?? zoneOwner)) : backColour(it.owner ?? zoneOwner);
}

function drawPiece(layer, p, cx, cy, r, u) {
  const g = svg("g", { class: `${p.face_down ? "piece face-down" : "piece"}${p.placing ? " placing" : ""}`, "data-at": p.at, "data-owner": p.owner ?? "" });
  const fill = p.face_down ? backColour(p.owner) : colour(p.colour, ownerColour(p.owner));
  const stroke = "#2b2823";
  const height = Math.max(1, Number(p.height) || 1);
  // a visible stack: up to three offset layers under the top piece
  for (let k = Math.min(height, 4) - 1; k >= 1; k--) {
    const under = shapePath(p.shape, cx + k * r * 0.12, cy + k * r * 0.16, r);
    under.setAttribute("fill", fill);
    under.setAttribute("stroke", stroke);
    under.setAttribute("stroke-width", u * 0.03);
    under.setAttribute("opacity", 0.75);
    g.append(under);
  }
  const top = shapePath(p.shape, cx, cy, r);
  top.classList.add("body");
  if (p.shape === "ring") {
    top.setAttribute("fill", "none");
    top.setAttribute("stroke", fill);
    top.setAttribute("stroke-width", r * 0.45);
  } else {
    top.setAttribute("fill", fill);
    top.setAttribute("stroke", stroke);
    top.setAttribute("stroke-width", u * 0.035);
  }
  g.append(top);
  const pic = p.picture && !p.face_down ? p.picture : null;
  if (pic) drawPicture(g, pic, cx - r * 0.78, cy - r * 0.78, r * 1.56, r * 1.56, colour(pic.colour, INK), 0);
  if (p.face_down && p.shape !== "ring") {
    // the back: an inner outline, so a hidden piece never looks like a plain one
    const back = shapePath(p.shape, cx, cy, r * 0.68);
    back.setAttribute("fill", "none");
    back.setAttribute("stroke", "#ffffff");
    back.setAttribute("stroke-opacity", 0.75);
    back.setAttribute("stroke-width", u * 0.03);
    back.setAttribute("stroke-dasharray", `${u * 0.05} ${u * 0.04}`);
    g.append(back);
  }
  if (p.facing !== null && p.facing !== undefined && !p.face_down) {
    const arrow = svg("polygon", {
      points: pts([[cx, cy - r * 1.32], [cx + r * 0.38, cy - r * 0.82], [cx - r * 0.38, cy - r * 0.82]]),
      fill: "#2b2823",
      transform: `rotate(${Number(p.facing) || 0} ${cx} ${cy})`,
    });
    g.append(arrow);
  }
  // a symbol (drawn looking the way the piece faces) instead of the label; in a triangle, low and a little smaller
  const tri = p.shape === "triangle";
  const icon = !p.face_down && !pic && p.icon
    ? drawIcon(p.icon, cx, tri ? cy + r * 0.2 : cy, r * (tri ? 1.15 : 1.4), inkOn(fill), fill, null, mirrored(p.icon, p.facing))
    : null;
  if (icon) g.append(icon);
  // a piece drawn as a picture or a symbol shows its label only on hover
  let label = p.face_down ? "?" : pic || icon ? null : p.label;
  if ((label === null || label === undefined || label === "") && height > 1 && !p.badge) label = icon ? null : String(height);
  if (label !== null && label !== undefined && label !== "") {
    const text = String(label);
    const size = r * (text.length <= 2 ? 1.05 : text.length <= 4 ? 0.7 : 0.5);
    // data-fit: the widest the label may be (inside its piece); fitBoard shrinks a label that is wider
    const t = svg("text", {
      x: cx, y: cy, "font-size": size, "text-anchor": "middle", "dominant-baseline": "central",
      fill: "#ffffff", stroke: "#1f1d1a", "stroke-width": size * 0.16, "paint-order": "stroke",
      "font-weight": 700, class: "piece-label", "data-fit": r * 1.5, "data-size": size,
    });
    t.textContent = text;
    g.append(t);
  }
  if (p.badge && !p.face_down) {
    // a count or a mark in a small disc at the piece's upper right
    const br = r * 0.42;
    const [bx, by] = [cx + r * 0.78, cy - r * 0.78];
    g.append(svg("circle", { cx: bx, cy: by, r: br, fill: "#fffdf8", stroke: "#1f1d1a", "stroke-width": u * 0.025, class: "badge" }));
    const t = svg("text", { x: bx, y: by, "font-size": br * 1.35, "text-anchor": "middle", "dominant-baseline": "central", fill: "#1f1d1a", "font-weight": 700, class: "piece-label badge-text", "data-size": br * 1.35 });
    t.textContent = String(p.badge);
    g.append(t);
  }
  const title = svg("title");
  const who = p.owner === null || p.owner === undefined ? "neutral" : (playerNames[p.owner] || `side ${p.owner}`);
  const named = p.name || p.detail;
  title.textContent = !p.face_down && (named || pic)
    ? `${named || p.label || p.kind || "piece"}${height > 1 ? ` (${height})` : ""}`
    : `${p.face_down ? "face-down " : ""}${p.kind || "piece"} (${who})${height > 1 ? `, height ${height}` : ""}${p.label && !p.face_down ? `: ${p.label}` : ""}`;
  g.setAttribute("data-name", title.textContent);
  g.append(title);
  layer.append(g);
}

// Several pieces on one place stand side by side, in rows of up to ceil(sqrt(k)) (the last row centred), each in
// its own spot of the place, so none hides another: [x, y, r] for each.
function sideBySide(k, cx, cy, base) {
  const cols = Math.ceil(Math.sqrt(k));
  const rows = Math.ceil(k / cols);
  const step = (base * 2.5) / cols;
  const r = Math.min(base, step * 0.44);
  const out = [];
  for (let i = 0; i < k; i++) {
    const row = Math.floor(i / cols);
    const inRow = row === rows - 1 ? k - row * cols : cols;
    out.push([cx + (i - row * cols - (inRow - 1) / 2) * step, cy + (row - (rows - 1) / 2) * step, r]);
  }
  return out;
}

// The box a piece drawn at x, y of radius r covers (its facing mark, its badge and its stack included).
function pieceExtent(p, x, y, r) {
  const body = p.shape === "square" || p.shape === "cube" ? r * 0.85 : r;
  const e = Math.max(body, p.facing !== null && p.facing !== undefined && !p.face_down ? r * 1.32 : 0, p.badge ? r * 1.2 : 0);
  const k = Math.min(Math.max(1, Number(p.height) || 1), 4) - 1;
  return [x - e, y - e, x + e + k * r * 0.12, y + e + k * r * 0.16];
}

function unionBox(a, b) {
  return a ? [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])] : b;
}

// Where a cell's name may go: the box [x0, y0, x1, y1] whose bottom it sits on (a square's own box; a hexagon's
// or a triangle's less its pointed bottom).
function labelBand(c) {
  const xs = c.polygon.map((p) => p[0]);
  const ys = c.polygon.map((p) => p[1]);
  const box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  const square = c.polygon.length === 4 && c.polygon.every((p) => (p[0] === box[0] || p[0] === box[2]) && (p[1] === box[1] || p[1] === box[3]));
  if (!square) box[3] = c.center[1] + (box[3] - c.center[1]) * 0.75;
  return box;
}

// A cell's name (a coordinate, "Hot", "Capitol") stays readable with pieces on the cell: the name lies along the
// cell's bottom and the pieces there stand above it, made smaller only as far as the room left asks; nothing covers
// it. Run when the board is drawn and again once fitBoard has set the labels' size.
function placeCellLabels(board) {
  const slots = new Map([...board.querySelectorAll("g.slot")].map((g) => [g.dataset.at, g]));
  for (const t of board.querySelectorAll("text.coord[data-cell]")) {
    const box = t.cellBox;
    if (!box) continue;
    const size = Number(t.getAttribute("font-size")) || 0;
    const gap = Math.min((box[3] - box[1]) * 0.04, size * 0.25);
    const y = box[3] - (box[3] - box[1]) * 0.07 - size * 0.6; // clear of a highlight's outline along the edge
    t.setAttribute("y", y);
    const slot = slots.get(t.dataset.cell);
    if (!slot || !slot.pieceBox) continue;
    const rings = board.querySelectorAll(`g.target[data-at="${CSS.escape(t.dataset.cell)}"] .ring`);
    // the ring marking a piece one can click moves with it, and shrinks as far as it must to leave the name clear
    let ringScale = 1;
    const place = (transform, ringRoom) => {
      for (const n of [slot, ...rings]) {
        if (transform) n.setAttribute("transform", transform);
        else n.removeAttribute("transform");
      }
      slot.dataset.scale = transform ? ringScale : 1;
      for (const n of rings) {
        n.dataset.r = n.dataset.r || n.getAttribute("r");
        n.setAttribute("r", Math.min(Number(n.dataset.r), ringRoom ?? Infinity));
      }
    };
    const b = slot.pieceBox;
    const top = y - size * 0.6 - gap; // the name's top, less a gap
    const half = (t.isConnected && t.getComputedTextLength ? t.getComputedTextLength() : box[2] - box[0]) / 2;
    const x = Number(t.getAttribute("x"));
    if (getComputedStyle(t).display === "none" || b[3] <= top || b[0] >= x + half + gap || b[2] <= x - half - gap) {
      place(null);
      continue;
    }
    const room = top - (box[1] + gap);
    const s = Math.max(0.25, Math.min(1, room / (b[3] - b[1])));
    const [cx, cy] = [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
    const ny = Math.min(cy, top - ((b[3] - b[1]) * s) / 2);
    // the ring is centred on the place's centre, drawn at ``s`` about the pieces' centre
    const ringAt = ny + s * ((slot.placeY ?? cy) - cy);
    ringScale = s;
    place(`translate(${cx - s * cx} ${ny - s * cy}) scale(${s})`, Math.max(0, (top - ringAt) / s));
  }
  placePointLabels(board);
}

// A point's name (a coordinate) goes beside it where nothing covers it: below and to the right when that is clear,
// else the first clear side of eight, never over a piece, another point or another name; with no side clear (a
// dense board on a small screen) it is left out (the point's target still names it on hover).
const SIDES = [[1, 1], [1, 0], [0, 1], [-1, 1], [1, -1], [-1, 0], [0, -1], [-1, -1]];

function placePointLabels(board) {
  const labels = [...board.querySelectorAll("text.coord[data-point]")].filter((t) => t.pointAt);
  if (!labels.length) return;
  const slots = [...board.querySelectorAll("g.slot")].filter((g) => g.pieceBox && !g.getAttribute("transform"));
  const occupied = new Map(slots.map((g) => [g.dataset.at, g.pieceBox]));
  const around = (t) => {
    const [x, y, r] = t.pointAt;
    return occupied.get(t.dataset.point) || [x - r, y - r, x + r, y + r];
  };
  const taken = [...slots.map((g) => g.pieceBox), ...labels.filter((t) => !occupied.has(t.dataset.point)).map(around)];
  const clear = (b) => !taken.some((o) => b[0] < o[2] && o[0] < b[2] && b[1] < o[3] && o[1] < b[3]);
  for (const t of labels) {
    t.style.display = "";
    const size = Number(t.getAttribute("font-size")) || 0;
    const w = (t.isConnected && t.getComputedTextLength()) || t.textContent.length * size * 0.6;
    const h = size * 1.25;
    const own = around(t);
    const [x, y] = t.pointAt;
    const gap = size * 0.12;
    let spot = null;
    for (const [dx, dy] of SIDES) {
      const bx = dx > 0 ? own[2] + gap : dx < 0 ? own[0] - gap - w : x - w / 2;
      const by = dy > 0 ? own[3] + gap : dy < 0 ? own[1] - gap - h : y - h / 2;
      const b = [bx, by, bx + w, by + h];
      if (clear(b)) {
        spot = b;
        break;
      }
    }
    if (!spot) {
      t.style.display = "none";
      continue;
    }
    taken.push(spot);
    t.setAttribute("x", spot[0]);
    t.setAttribute("y", spot[1] + size * 0.12);
  }
}

const HL_STYLE = {
  last: { stroke: "#f0e442", under: "#1f2328", width: 0.13, dash: null },
  selected: { stroke: "#1f2328", under: null, width: 0.09, dash: "0.18 0.1" },
  warning: { stroke: "#8a1c1c", under: "#ffffff", width: 0.1, dash: "0.12 0.08" },
  hint: { stroke: "#5f6368", under: null, width: 0.06, dash: "0.05 0.07" },
};

function outline(place, u, style, layer, cls) {
  const mk = (stroke, width, dash) => {
    if (place.type === "cell" && place.c.polygon) {
      return svg("polygon", { points: pts(place.c.polygon), fill: "none", stroke, "stroke-width": width * u, "stroke-dasharray": dash ? dash.split(" ").map((x) => x * u).join(" ") : null, "stroke-linejoin": "round", class: cls });
    }
    if (place.type === "cell") {
      const r = (place.c.radius || u * 0.2) + u * 0.12;
      return svg("circle", { cx: place.at[0], cy: place.at[1], r, fill: "none", stroke, "stroke-width": width * u, "stroke-dasharray": dash ? dash.split(" ").map((x) => x * u).join(" ") : null, class: cls });
    }
    return svg("line", { x1: place.e.from[0], y1: place.e.from[1], x2: place.e.to[0], y2: place.e.to[1], stroke, "stroke-width": width * u * 1.6, "stroke-linecap": "round", "stroke-dasharray": dash ? dash.split(" ").map((x) => x * u).join(" ") : null, class: cls, opacity: 0.9 });
  };
  const at = place.type === "cell" ? place.c.id : place.e.id;
  const marks = [style.under ? mk(style.under, style.width * 1.6, null) : null, mk(style.stroke, style.width, style.dash)];
  for (const m of marks.filter(Boolean)) {
    m.setAttribute("data-at", at);
    layer.append(m);
  }
}

// Render a scene. opts: {onAction(action), interactive, moverColour}
export function renderScene(root, scene, opts = {}) {
  const boardWrap = root.querySelector(".board-wrap");
  const zonesBox = root.querySelector(".zones");
  const buttonsBox = root.querySelector(".buttons");
  const legalBox = root.querySelector(".legal-list");
  const statusBox = root.querySelector(".status");
  // a chooser left open stays open if the same choices are still there (updates arrive while one decides)
  const openBox = root.querySelector(".chooser");
  const reopen = openBox ? { at: openBox.dataset.at, actions: openBox.dataset.actions, confirm: openBox.dataset.confirm, host: openBox.parentElement, left: openBox.style.left, top: openBox.style.top } : null;
  closeChooser(root);
  const before = root.renderedScene;
  root.renderedScene = scene; // the scene drawn last, for tests and tools
  const original = scene;
  scene = withSteps(root, scene, !!opts.interactive);
  // what changed since the view drawn before (only between consecutive views of one seat: opts.animate)
  const changes = opts.animate
    ? boardChanges(root, before, scene)
    : opts.keepMarks ? { ...(root.boardChanges || NO_CHANGES), gone: [], fresh: false } : (root.boardChanges = NO_CHANGES);
  const still = reducedMotion();
  const itemsBefore = opts.animate && before ? itemKeys(before) : null;
  useSeatColours(scene);
  bindLongPress(root);
  const interactive = !!opts.interactive && typeof opts.onAction === "function";
  const allTargets = interactive ? scene.targets || [] : [];
  // two-click targets (``with``): the item picked first keeps only its own targets; one item alone is picked
  const picks = [...new Set(allTargets.filter((t) => t.with).map((t) => t.with))];
  const pick = picks.includes(root.pick) ? root.pick : picks.length === 1 ? picks[0] : null;
  root.pick = pick;
  root.dataset.pick = pick || "";
  const targets = allTargets.filter((t) => !t.with || !pick || t.with === pick);
  const byPlace = groupBy(targets, "at");
  const rerender = () => renderScene(root, original, { ...opts, animate: false, keepMarks: true });
  // a click of a move played in several clicks (``steps``) is kept here, and the scene drawn again
  const act = (action) => (isStep(action) ? (takeStep(root, action), rerender()) : opts.onAction(action));
  // a target or button that carries a warning (a move that loses at once) is played only once confirmed
  const play = (t, ev, host) => (t.confirm ? openConfirm(root, host || root, ev, t, act) : act(t.action));
  const warnings = new Map([...targets, ...(scene.buttons || [])].filter((t) => t.confirm).map((t) => [t.action, t.confirm]));
  const hl = groupBy(scene.highlights || [], "at");

  // -- the board -----------------------------------------------------------
  if (boardWrap) {
    boardWrap.replaceChildren();
    const hasBoard = (scene.cells || []).length || (scene.edges || []).length;
    boardWrap.classList.toggle("empty", !hasBoard);
    if (hasBoard) {
      const u = unitOf(scene);
      const vb = scene.viewbox || [0, 0, 1, 1];
      const root_ = svg("svg", { viewBox: vb.join(" "), role: "group", "aria-label": "game board", "data-cells": scene.cells.length, "data-unit": u, "data-scrolls": scene.scrolls ? "1" : null });
      const L = {};
      // highlights lie under the edges and pieces they mark (a mark never hides the lines just laid)
      for (const name of ["cells", "labels", "areas", "hl", "edges", "points", "ghosts", "pieces", "names", "captions", "targets"]) {
        L[name] = svg("g", { class: `layer-${name}` });
        root_.append(L[name]);
      }
      const places = placeIndex(scene);
      for (const c of scene.cells) {
        let shape;
        if (c.kind === "area" && c.polygon) {
          drawArea(L.areas, L.names, c, u);
          continue;
        }
        if (c.polygon) {
          shape = svg("polygon", { points: pts(c.polygon), fill: colour(c.fill, CELL_FILL), stroke: CELL_STROKE, "stroke-width": u * 0.03, "stroke-linejoin": "round" });
        } else {
          const r = c.radius || u * 0.12;
          shape = svg("circle", { cx: c.center[0], cy: c.center[1], r, fill: colour(c.fill, c.kind === "point" ? "#ddd5c4" : CELL_FILL), stroke: "#8a8170", "stroke-width": u * 0.03 });
        }
        shape.setAttribute("data-id", c.id);
        shape.setAttribute("class", `cell kind-${c.kind || "cell"}`);
        // areas lie under the edges drawn on them; points (vertices) sit on top of their grid lines
        (c.polygon ? L.cells : L.points).append(shape);
        if (c.label && c.polygon) {
          // placed along the square's bottom by placeCellLabels, the pieces on it above (never over it)
          const t = svg("text", { x: c.center[0], y: c.center[1] + u * 0.3, "font-size": u * 0.2, "text-anchor": "middle", "dominant-baseline": "central", fill: coordInk(colour(c.fill, CELL_FILL)), class: "coord", "data-size": u * 0.2, "data-room": u * 0.92, "data-cell": c.id });
          t.cellBox = labelBand(c);
          t.textContent = c.label;
          L.labels.append(t);
        } else if (c.label) {
          const r = c.radius || u * 0.12;
          // placed beside its point, clear of the pieces, by placePointLabels
          const t = svg("text", { x: c.center[0] + r * 0.8, y: c.center[1] + r * 0.8 + u * 0.08, "font-size": u * 0.16, "text-anchor": "start", "dominant-baseline": "hanging", fill: "#8a8170", class: "coord", "data-size": u * 0.16, "data-point": c.id });
          t.pointAt = [c.center[0], c.center[1], r];
          t.textContent = c.label;
          L.points.append(t);
        }
      }
      for (const cap of scene.captions || []) {
        const size = Number(cap.size) > 0 ? Number(cap.size) : u * 0.25;
        const t = svg("text", { x: cap.at[0], y: cap.at[1], "font-size": size, "text-anchor": cap.anchor || "middle", "dominant-baseline": "central", fill: "#3d3a35", "font-weight": 600, class: "caption", "data-size": size });
        t.textContent = cap.text;
        L.captions.append(t);
      }
      for (const e of scene.edges) {
        const owned = e.owner !== null && e.owner !== undefined;
        const stroke = owned ? colour(e.stroke, ownerColour(e.owner)) : colour(e.stroke, "#b3aa98");
        const width = owned ? u * 0.13 : e.kind === "grid" ? u * 0.025 : u * 0.045;
        L.edges.append(svg("line", { x1: e.from[0], y1: e.from[1], x2: e.to[0], y2: e.to[1], stroke, "stroke-width": width, "stroke-linecap": "round", "data-id": e.id, class: `edge kind-${e.kind || "edge"}` }));
      }
      for (const [at, list] of hl) {
        const place = places.get(at);
        if (!place) continue;
        for (const h of list) outline(place, u, HL_STYLE[h.kind] || HL_STYLE.hint, L.hl, `hl hl-${h.kind}`);
      }
      // where pieces went (or changed) since the last view: marked as the last move, whatever the game marks
      const marked = new Set((scene.highlights || []).filter((h) => h.kind === "last").map((h) => h.at));
      for (const at of changes.moved) {
        const place = places.get(at);
        if (place && !marked.has(at)) outline(place, u, HL_STYLE.last, L.hl, `hl hl-last hl-moved${changes.fresh && !still ? " fresh" : ""}`);
      }
      // pieces that left a place (moved away, captured, blasted) fade out there
      if (changes.fresh && !still) {
        for (const p of changes.gone) {
          const place = places.get(p.at);
          if (!place) continue;
          const base = place.type === "edge" ? u * 0.22 : place.c.polygon ? u * 0.34 : Math.max(u * 0.3, (place.c.radius || 0) * 1.1);
          drawPiece(L.ghosts, p, place.at[0], place.at[1], base, u);
          const ghost = L.ghosts.lastElementChild;
          ghost.classList.add("leave");
          setTimeout(() => ghost.remove(), 600);
        }
      }
      const piecesAt = groupBy((scene.pieces || []).filter((p) => places.has(p.at)), "at");
      for (const [at, list] of piecesAt) {
        const place = places.get(at);
        const base = place.type === "edge" ? u * 0.22 : place.c.polygon ? u * 0.34 : Math.max(u * 0.3, (place.c.radius || 0) * 1.1);
        // the pieces of one place in one group (a slot), which placeCellLabels may move clear of the place's name
        const slot = svg("g", { class: "slot", "data-at": at });
        L.pieces.append(slot);
        const spots = list.length === 1
          ? [[place.at[0], place.at[1], Number(list[0].size) > 0 ? Number(list[0].size) : base]]
          : sideBySide(list.length, place.at[0], place.at[1], base);
        slot.pieceBox = null;
        slot.placeY = place.at[1];
        list.forEach((p, i) => {
          const [x, y, r] = spots[i];
          drawPiece(slot, p, x, y, r, u);
          slot.pieceBox = unionBox(slot.pieceBox, pieceExtent(p, x, y, r));
          if (changes.fresh && !still && changes.moved.has(at)) slot.lastElementChild.classList.add("arrive");
        });
      }
      const mover = opts.moverColour || "#0b5cad";
      // where most of the board's free edges can be clicked (any first edge of a chevron), marking each of them
      // would cover the board in dashes: they are marked only under the pointer or the keyboard's focus
      const edgeTargets = [...byPlace.keys()].filter((at) => (places.get(at) || {}).type === "edge").length;
      const freeEdges = scene.edges.filter((e) => e.owner === null || e.owner === undefined).length;
      const quietEdges = edgeTargets >= 12 && edgeTargets >= freeEdges * 0.5;
      for (const [at, list] of byPlace) {
        const place = places.get(at);
        if (!place) continue;
        const labels = list.map((t) => t.label).join(", ");
        const quiet = quietEdges && place.type === "edge";
        const g = svg("g", { class: quiet ? "target quiet" : "target", tabindex: 0, role: "button", "data-at": at, "data-actions": list.map((t) => t.action).join(","), "aria-label": list.length === 1 ? `${list[0].label}` : `${at}: ${list.length} choices` });
        const title = svg("title");
        title.textContent = labels;
        g.append(title);
        if (place.type === "cell") {
          const hasPiece = piecesAt.has(at);
          const hit = place.c.polygon
            ? svg("polygon", { points: pts(place.c.polygon), class: "hit", fill: "rgba(0,0,0,0)", stroke: "none", "stroke-width": u * 0.06 })
            : svg("circle", { cx: place.at[0], cy: place.at[1], r: u * 0.45, class: "hit", fill: "rgba(0,0,0,0)", "stroke-width": u * 0.04 });
          g.append(hit);
          if (hasPiece) {
            g.append(svg("circle", { cx: place.at[0], cy: place.at[1], r: u * 0.42, fill: "none", stroke: mover, "stroke-width": u * 0.06, "stroke-dasharray": `${u * 0.12} ${u * 0.08}`, class: "ring" }));
          } else {
            g.append(svg("circle", { cx: place.at[0], cy: place.at[1], r: u * 0.13, fill: mover, opacity: 0.55, class: "dot" }));
          }
        } else {
          const e = place.e;
          // the hit area is a band around the edge (a polygon, so it has an area even when the edge is level)
          g.append(svg("polygon", { class: "hit", fill: "rgba(0,0,0,0)", "stroke-width": u * 0.03, points: pts(edgeBand(e, u, 0)) }));
          g.append(svg("line", { x1: e.from[0], y1: e.from[1], x2: e.to[0], y2: e.to[1], stroke: mover, opacity: quiet ? null : 0.6, "stroke-width": u * 0.07, "stroke-dasharray": `${u * 0.12} ${u * 0.1}`, "stroke-linecap": "round", class: "mark" }));
        }
        g.boardPlace = place;
        g.boardUnit = u;
        const activate = (ev) => {
          ev.preventDefault();
          ev.stopPropagation();
          if (list.length === 1) play(list[0], ev, boardWrap);
          else openChooser(root, boardWrap, ev, list, play, at);
        };
        g.addEventListener("click", activate);
        g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") activate(ev); });
        L.targets.append(g);
      }
      boardWrap.append(root_);
      placeCellLabels(root_);
    }
  }

  // -- zones: hands, piles, dice -----------------------------------------------
  if (zonesBox) {
    zonesBox.replaceChildren();
    const piecesOnItems = groupBy((scene.pieces || []), "at");
    for (const z of zoneOrder(scene.zones || [], opts.viewer)) {
      // zones stay in the order the scene lists them, whoever is to play and whatever can be clicked, so the
      // layout does not move between turns; one with something to click is only marked
      const playable = (z.items || []).some((it) => byPlace.has(it.id));
      const grid = Number.isInteger(z.columns) && z.columns > 0;
      const zoneClass = ["zone", playable ? "playable" : "", grid ? "grid" : ""].filter(Boolean).join(" ");
      const box = el("section", { class: zoneClass, "data-zone": z.id, "data-owner": z.owner ?? "" });
      if (z.owner !== null && z.owner !== undefined) box.style.borderLeftColor = ownerColour(z.owner);
      box.append(el("h3", {}, z.title || z.id));
      const items = el("div", { class: grid ? "items grid" : "items" });
      // a zone declared as a grid (columns) is drawn that many items wide, row by row
      if (grid) items.style.gridTemplateColumns = `repeat(${z.columns}, max-content)`;
      for (const it of z.items || []) {
        const ts = byPlace.get(it.id) || [];
        const picked = picks.includes(it.id);
        const cls = ["item", it.kind || "card", it.face_down ? "face-down" : "", picked ? "pick" : "", it.id === pick ? "hl-selected" : ""];
        for (const h of hl.get(it.id) || []) cls.push(`hl-${h.kind}`);
        if (itemsBefore && !still && !itemsBefore.has(itemKey(z, it))) cls.push("arrive");
        const attrs = { class: cls.filter(Boolean).join(" "), "data-item": it.id };
        let node;
        if (picked) {
          // picked first, then a place on the board (clicked again, it is put back)
          const mine = allTargets.filter((t) => t.with === it.id);
          node = el("button", { ...attrs, type: "button", "data-pick": it.id, "aria-pressed": String(it.id === pick), title: `${it.label}: pick it, then click where it goes (${mine.length} places)` });
          node.addEventListener("click", () => {
            root.pick = root.pick === it.id && picks.length > 1 ? null : it.id;
            rerender();
          });
        } else if (ts.length) {
          node = el("button", { ...attrs, type: "button", "data-at": it.id, "data-actions": ts.map((t) => t.action).join(","), title: ts.map((t) => t.label).join(", ") });
          node.addEventListener("click", (ev) => {
            if (ts.length === 1) play(ts[0], ev, zonesBox);
            else openChooser(root, zonesBox, ev, ts, play, it.id);
          });
        } else {
          node = el("div", attrs);
        }
        const figure = itemFigure(it, z.owner);
        if (figure) {
          node.classList.add("has-figure");
          if (it.icon && !it.face_down) node.classList.add("has-icon");
          node.append(figure);
        }
        if (it.face_down && it.kind !== "card") {
          const owner = it.owner ?? z.owner;
          if (it.colour || (owner !== null && owner !== undefined)) node.style.background = itemBack(it, z.owner);
        }
        node.append(el("span", { class: "label" }, it.face_down ? "face down" : it.label));
        if (it.detail) {
          node.append(el("span", { class: "detail" }, it.detail));
          node.title = node.title ? `${node.title} (${it.detail})` : it.detail;
        }
        if (it.name && !it.face_down) {
          // what the item is, in full: on hover (title) and on a long press
          node.title = node.title ? `${it.name} (${node.title})` : it.name;
        }
        if (node.title) node.dataset.name = node.title;
        const ps = piecesOnItems.get(it.id);
        if (ps) {
          const row = el("span", { class: "pieces" });
          for (const p of ps) {
            const pip = el("span", { class: "pip", title: `${p.kind || "piece"}${p.label ? ": " + p.label : ""}` });
            pip.style.background = p.face_down ? backColour(p.owner) : colour(p.colour, ownerColour(p.owner));
            row.append(pip);
          }
          node.append(row);
        }
        items.append(node);
      }
      box.append(items);
      zonesBox.append(box);
    }
  }

  // -- buttons and the text list of legal moves --------------------------------
  if (buttonsBox) {
    buttonsBox.replaceChildren();
    if (interactive) {
      for (const b of scene.buttons || []) {
        const warn = b.confirm ? { "data-confirm": "1" } : {};
        buttonsBox.append(el("button", { type: "button", "data-action": b.action, class: b.confirm ? "scene-button warn" : "scene-button", ...warn, onclick: (ev) => play(b, ev, buttonsBox) }, b.label));
      }
    }
  }
  if (legalBox) {
    legalBox.replaceChildren();
    const legal = interactive ? opts.legal || [] : [];
    const details = legalBox.closest("details");
    if (details) {
      details.classList.toggle("hidden", !legal.length);
      const sum = details.querySelector("summary");
      if (sum) sum.textContent = `All legal moves as text (${legal.length})`;
    }
    for (const [a, label] of legal) {
      const t = { action: a, label, confirm: warnings.get(a) };
      legalBox.append(el("button", { type: "button", "data-action": a, class: "legal-move", onclick: (ev) => play(t, ev, legalBox) }, label));
    }
  }
  if (statusBox) {
    statusBox.replaceChildren(...(scene.status || []).map((s) => el("li", {}, s)));
  }
  // a click that only begins a move (one of its steps) is marked so (data-pick), like an item picked first
  for (const node of root.querySelectorAll("[data-actions^='step:'], .buttons button[data-action^='step:']")) node.dataset.pick = "step";
  fitBoard(root); // once the buttons and hands under the board are drawn
  if (reopen) {
    const list = byPlace.get(reopen.at) || [];
    const host = reopen.host && reopen.host.isConnected ? reopen.host : null;
    const asked = [...targets, ...(scene.buttons || [])].find((t) => t.confirm && String(t.action) === reopen.confirm);
    if (reopen.confirm !== undefined) {
      if (host && asked) openConfirm(root, host, null, asked, act, { left: reopen.left, top: reopen.top });
    } else if (host && list.map((t) => t.action).join(",") === reopen.actions) {
      openChooser(root, host, null, list, play, reopen.at, { left: reopen.left, top: reopen.top });
    }
  }
}

// Moves played in several clicks (a target's ``steps``: items and places clicked in turn, then ``at``): only the
// next click of the moves still open is offered (one target per place, whatever the moves it leads to); an item
// (or a piece on the board) picked and then a place is drawn on that place, lightly, until the move is played; a
// button begins it again. root.steps holds the clicks made so far, forgotten when the moves on offer change.
const STEP = "step:";
const STEP_AGAIN = `${STEP}again`;

function isStep(action) {
  return typeof action === "string" && action.startsWith(STEP);
}

function takeStep(root, action) {
  root.steps = action === STEP_AGAIN ? [] : [...(root.steps || []), action.slice(STEP.length)];
}

function withSteps(root, scene, interactive) {
  const all = scene.targets || [];
  const multi = all.filter((t) => Array.isArray(t.steps) && t.steps.length);
  const key = multi.map((t) => t.action).join(",");
  if (root.stepsKey !== key) {
    root.stepsKey = key;
    root.steps = [];
  }
  if (!multi.length || !interactive) return scene;
  let done = root.steps || [];
  let open = multi.filter((t) => done.every((id, k) => t.steps[k] === id));
  if (!open.length) {
    done = root.steps = [];
    open = multi;
  }
  const items = new Map();
  for (const z of scene.zones || []) for (const it of z.items || []) items.set(it.id, { it, z });
  const cells = new Map((scene.cells || []).map((c) => [c.id, c]));
  const name = (id) => (items.has(id) ? items.get(id).it.label : cells.has(id) ? `on ${cells.get(id).label || id}` : id);
  const targets = all.filter((t) => !multi.includes(t));
  const next = new Set();
  for (const t of open) {
    if (t.steps.length > done.length) {
      const id = t.steps[done.length];
      if (!next.has(id)) targets.push({ at: id, action: STEP + id, label: name(id) });
      next.add(id);
    } else {
      const { steps, ...rest } = t;
      targets.push(rest);
    }
  }
  let pieces = [...(scene.pieces || [])];
  const highlights = [...(scene.highlights || [])];
  // the clicks go in pairs where a pick is followed by a place: the thing picked is drawn there
  for (let k = 0; k < done.length; k++) {
    const id = done[k];
    const then = done[k + 1];
    const moving = !items.has(id) && then && !items.has(then) ? pieces.find((p) => p.at === id) : null;
    if (moving) {
      // a piece picked on the board, then a place: it is drawn there
      pieces = pieces.filter((p) => p !== moving);
      pieces.push({ ...moving, at: then, placing: true });
      k++;
      continue;
    }
    highlights.push({ at: id, kind: "selected" });
    if (items.has(id) && then && !items.has(then)) {
      const { it, z } = items.get(id);
      const owner = it.owner ?? z.owner ?? null;
      pieces.push({ at: then, owner, kind: it.label, label: it.label, height: 1, facing: null, face_down: false, shape: it.kind === "token" || it.kind === "coin" ? "disc" : "square", ...(it.icon ? { icon: it.icon } : {}), ...(it.colour ? { colour: it.colour } : {}), name: `${it.name || it.label} (placed, not yet played)`, placing: true });
      k++;
    }
  }
  const buttons = [...(scene.buttons || [])];
  if (done.length) buttons.unshift({ action: STEP_AGAIN, label: "Begin this move again" });
  return { ...scene, targets, pieces, highlights, buttons };
}

// On a phone (a narrow screen) the viewer's own zones come first, right under the board (their hand, their city),
// then the table's (no owner: pools, piles), then the other players'; each group in the scene's order. The order
// depends only on the seat looking, never on whose turn it is or what can be clicked, so it holds from turn to turn.
// A wider screen keeps the scene's order, which lays the zones out side by side as the game arranged them.
export const NARROW = "(max-width: 899px)";

export function zoneOrder(zones, viewer) {
  const narrow = typeof window.matchMedia === "function" && window.matchMedia(NARROW).matches;
  if (!narrow || viewer === null || viewer === undefined) return zones;
  const rank = (z) => (z.owner === viewer ? 0 : z.owner === null || z.owner === undefined ? 1 : 2);
  return zones.map((z, i) => [rank(z), i, z]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]);
}

// -- item figures: cards, card backs, dice, pictures -----------------------------------

const SUITS = {
  spades: ["\u2660", "#1f1d1a"], hearts: ["\u2665", "#b3261e"], diamonds: ["\u2666", "#b3261e"], clubs: ["\u2663", "#1f1d1a"],
  "\u2660": ["\u2660", "#1f1d1a"], "\u2665": ["\u2665", "#b3261e"], "\u2666": ["\u2666", "#b3261e"], "\u2663": ["\u2663", "#1f1d1a"],
};
const INK = "#1f1d1a";

function suitOf(it) {
  if (it.suit === null || it.suit === undefined || it.suit === "") return null;
  const known = SUITS[String(it.suit).toLowerCase()] || SUITS[it.suit];
  return known ? { glyph: known[0], ink: known[1] } : { glyph: String(it.suit), ink: INK };
}

function hasValue(it) {
  return it.value !== null && it.value !== undefined && it.value !== "";
}

// A card 5:7, a die, or a picture on a token; null when the item is plain text.
function itemFigure(it, zoneOwner) {
  const kind = it.kind || "card";
  if (it.picture && Number(it.picture.unit) > 0 && !it.face_down) return sizedFigure(it, kind);
  if (kind === "card") {
    if (it.face_down) return cardBack(itemBack(it, zoneOwner));
    if (hasValue(it) || suitOf(it) || it.picture || it.icon) return cardFace(it);
    return null;
  }
  if (it.icon && !it.face_down && kind !== "die") return iconToken(it, zoneOwner);
  if (kind === "die" && !it.face_down && (hasValue(it) || it.picture)) return dieFace(it);
  if (it.picture && !it.face_down) {
    const fig = svg("svg", { viewBox: "0 0 36 36", width: 36, height: 36, class: "figure picture", "aria-hidden": "true" });
    drawPicture(fig, it.picture, 3, 3, 30, 30, colour(it.colour, INK));
    return fig;
  }
  return null;
}

function cardFace(it) {
  const suit = suitOf(it);
  const ink = colour(it.colour, suit ? suit.ink : INK);
  const fig = svg("svg", { viewBox: "0 0 50 70", width: 50, height: 70, class: "figure card-face", "data-value": hasValue(it) ? it.value : "", "aria-hidden": "true" });
  fig.append(svg("rect", { x: 1, y: 1, width: 48, height: 68, rx: 5, fill: "#fffdf8", stroke: "#8a8170", "stroke-width": 1.2 }));
  const corner = (transform) => {
    const g = svg("g", { class: "corner", transform });
    if (hasValue(it)) {
      const v = String(it.value);
      const t = svg("text", { x: 6, y: 13, "font-size": v.length > 2 ? 8 : 11, "font-weight": 700, fill: ink, "text-anchor": "middle", class: "corner-value" });
      t.textContent = v;
      g.append(t);
    }
    if (suit) {
      const t = svg("text", { x: 6, y: hasValue(it) ? 23 : 13, "font-size": 9, fill: ink, "text-anchor": "middle", class: "corner-suit" });
      t.textContent = suit.glyph;
      g.append(t);
    }
    return g;
  };
  fig.append(corner(null), corner("rotate(180 25 35)"));
  const icon = it.icon ? drawIcon(it.icon, 25, 35, 34, colour(it.colour, ink), "#fffdf8") : null;
  if (icon) {
    fig.append(icon);
  } else if (it.picture) {
    drawPicture(fig, it.picture, 12, 16, 26, 38, colour(it.colour, ink));
  } else {
    const big = suit ? suit.glyph : String(it.value);
    const t = svg("text", { x: 25, y: 36, "font-size": big.length > 2 ? 11 : 22, fill: ink, "text-anchor": "middle", "dominant-baseline": "central", class: "centre" });
    t.textContent = big;
    fig.append(t);
  }
  return fig;
}

// An item drawn at its picture's own scale (``unit`` pixels per grid square): the art fills the card, and a card
// turned a quarter lies across.
function sizedFigure(it, kind) {
  const pic = it.picture;
  const [cols, rows] = pic.grid || [1, 1];
  const unit = Number(pic.unit);
  const pad = Math.max(5, unit * 0.28);
  const w = cols * unit + 2 * pad;
  const h = rows * unit + 2 * pad;
  const fig = svg("svg", { viewBox: `0 0 ${w} ${h}`, width: w, height: h, class: `figure sized ${kind === "card" ? "card-face" : "picture"}`, "data-unit": unit, "data-h": h, "aria-hidden": "true" });
  if (kind === "card") fig.append(svg("rect", { x: 1, y: 1, width: w - 2, height: h - 2, rx: Math.min(8, pad), fill: "#fffdf8", stroke: "#8a8170", "stroke-width": 1.2 }));
  drawPicture(fig, pic, pad, pad, cols * unit, rows * unit, colour(it.colour, INK));
  return fig;
}

// A laid tile (a cell of kind "area"): one shape over the cells it covers, in its fill, with its name in its
// top-left corner (drawn above the pieces on it) in an ink that reads on that fill.
function drawArea(layer, names, c, u) {
  const fill = colour(c.fill, "#d9d3c6");
  layer.append(svg("polygon", { points: pts(c.polygon), fill, stroke: "#2b2823", "stroke-width": u * 0.04, "stroke-linejoin": "round", class: "cell area", "data-id": c.id }));
  if (c.label) {
    const xs = c.polygon.map((p) => p[0]);
    const ys = c.polygon.map((p) => p[1]);
    const size = u * 0.2;
    const t = svg("text", { x: Math.min(...xs) + u * 0.05, y: Math.min(...ys) + u * 0.05, "font-size": size, "text-anchor": "start", "dominant-baseline": "hanging", "font-weight": 700, fill: inkOn(fill), class: "coord area-label", "data-size": size });
    t.textContent = c.label;
    names.append(t); // above the marks and pieces on the area, so the name always shows
  }
}

// A token, coin or counter showing a symbol: a disc in its colour (its owner's when it has none) with the symbol.
function iconToken(it, zoneOwner) {
  const owner = it.owner ?? zoneOwner;
  const fill = colour(it.colour, owner === null || owner === undefined ? "#e8e2d4" : ownerColour(owner));
  const fig = svg("svg", { viewBox: "0 0 40 40", width: 40, height: 40, class: "figure icon-token", "aria-hidden": "true" });
  fig.append(svg("circle", { cx: 20, cy: 20, r: 18.5, fill, stroke: "#2b2823", "stroke-width": 1.5 }));
  fig.append(drawIcon(it.icon, 20, 20, 25, inkOn(fill), fill));
  return fig;
}

function cardBack(fill) {
  const fig = svg("svg", { viewBox: "0 0 50 70", width: 50, height: 70, class: "figure card-back", "data-fill": fill, "aria-hidden": "true" });
  fig.append(svg("rect", { x: 1, y: 1, width: 48, height: 68, rx: 5, fill, stroke: "#2b2823", "stroke-width": 1.2, class: "back" }));
  fig.append(svg("rect", { x: 5, y: 5, width: 40, height: 60, rx: 3, fill: "none", stroke: "#ffffff", "stroke-opacity": 0.85, "stroke-width": 1.2 }));
  for (let row = 0; row < 6; row++) {
    for (let col = 0; col < 4; col++) {
      const cx = 10 + col * 10;
      const cy = 10 + row * 10;
      fig.append(svg("polygon", { points: pts([[cx, cy - 4], [cx + 4, cy], [cx, cy + 4], [cx - 4, cy]]), fill: "#ffffff", "fill-opacity": 0.28 }));
    }
  }
  return fig;
}

// Pip positions on a die face of side 1, for the values 1-6.
const PIPS = {
  1: [[0.5, 0.5]],
  2: [[0.27, 0.27], [0.73, 0.73]],
  3: [[0.27, 0.27], [0.5, 0.5], [0.73, 0.73]],
  4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
  5: [[0.27, 0.27], [0.73, 0.27], [0.5, 0.5], [0.27, 0.73], [0.73, 0.73]],
  6: [[0.27, 0.25], [0.73, 0.25], [0.27, 0.5], [0.73, 0.5], [0.27, 0.75], [0.73, 0.75]],
};

function dieFace(it) {
  const ink = colour(it.colour, INK);
  const fig = svg("svg", { viewBox: "0 0 40 40", width: 40, height: 40, class: "figure die-face", "data-value": hasValue(it) ? it.value : "", "aria-hidden": "true" });
  fig.append(svg("rect", { x: 1.5, y: 1.5, width: 37, height: 37, rx: 7, fill: "#fffdf8", stroke: "#2b2823", "stroke-width": 1.5 }));
  const pips = PIPS[it.value];
  if (pips) {
    for (const [x, y] of pips) fig.append(svg("circle", { cx: 2 + x * 36, cy: 2 + y * 36, r: 3.6, fill: ink, class: "pip-dot" }));
  } else if (it.picture) {
    drawPicture(fig, it.picture, 7, 7, 26, 26, ink);
  } else {
    const t = svg("text", { x: 20, y: 21, "font-size": 16, "font-weight": 700, fill: ink, "text-anchor": "middle", "dominant-baseline": "central" });
    t.textContent = String(it.value);
    fig.append(t);
  }
  return fig;
}

// A picture (filled squares and strokes on a small grid) fitted, centred, into the box x, y, w, h;
// stroke_colours, when given, colours each stroke in turn.
function drawPicture(parent, pic, x, y, w, h, ink, minStroke = 1.2) {
  const [cols, rows] = pic.grid || [1, 1];
  const s = Math.min(w / Math.max(1, cols), h / Math.max(1, rows));
  const ox = x + (w - s * cols) / 2;
  const oy = y + (h - s * rows) / 2;
  const fill = colour(pic.colour, ink);
  const g = svg("g", { class: "picture" });
  for (const [c, r] of pic.cells || []) {
    g.append(svg("rect", { x: ox + c * s + s * 0.06, y: oy + r * s + s * 0.06, width: s * 0.88, height: s * 0.88, rx: s * 0.12, fill, class: "picture-cell" }));
  }
  for (const shape of pic.fills || []) {
    g.append(svg("polygon", { points: pts(shape.map(([px, py]) => [ox + px * s, oy + py * s])), fill, "stroke-linejoin": "round", class: "picture-fill" }));
  }
  const strokeColours = pic.stroke_colours || [];
  for (const [k, line] of (pic.strokes || []).entries()) {
    const ink_ = strokeColours[k] ? colour(strokeColours[k], fill) : fill;
    g.append(svg("polyline", { points: pts(line.map(([px, py]) => [ox + px * s, oy + py * s])), fill: "none", stroke: ink_, "stroke-width": Math.max(minStroke, s * 0.16), "stroke-linecap": "round", "stroke-linejoin": "round", class: "picture-stroke" }));
  }
  parent.append(g);
}

export function closeChooser(root) {
  for (const c of (root || document).querySelectorAll(".chooser")) c.remove();
}

// A long press (touch or pen) on a piece or an item shows its name, as the mouse's hover shows its tooltip; the
// tap that ends such a press plays nothing.
function bindLongPress(root) {
  if (!root || root.longPress) return;
  root.longPress = true;
  let timer = null;
  let start = null;
  let shown = false;
  const clear = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  root.addEventListener("pointerdown", (ev) => {
    for (const t of document.querySelectorAll(".name-tip")) t.remove();
    if (ev.pointerType === "mouse") return;
    start = [ev.clientX, ev.clientY];
    shown = false;
    clear();
    timer = setTimeout(() => {
      const hit = document.elementsFromPoint(start[0], start[1]).map((n) => n.closest && n.closest("[data-name]")).find(Boolean);
      if (!hit) return;
      shown = true;
      const tip = el("div", { class: "name-tip", role: "tooltip" }, hit.dataset.name);
      document.body.append(tip);
      const w = tip.offsetWidth;
      tip.style.left = `${Math.max(4, Math.min(start[0] - w / 2, document.documentElement.clientWidth - w - 4))}px`;
      tip.style.top = `${Math.max(4, start[1] - tip.offsetHeight - 28)}px`;
      setTimeout(() => tip.remove(), 4000);
    }, 500);
  });
  root.addEventListener("pointermove", (ev) => {
    if (start && Math.hypot(ev.clientX - start[0], ev.clientY - start[1]) > 10) clear();
  });
  root.addEventListener("pointerup", clear);
  root.addEventListener("pointercancel", clear);
  root.addEventListener("click", (ev) => {
    if (!shown) return;
    shown = false;
    ev.stopPropagation();
    ev.preventDefault();
  }, true);
  root.addEventListener("contextmenu", (ev) => {
    if (shown || timer) ev.preventDefault();
  });
}

// Asks before a move that carries a warning: the warning, then "Play it anyway" or "Cancel" (Escape cancels).
function openConfirm(root, host, ev, t, act, where) {
  closeChooser(root);
  // asked from the folded list of moves (the keyboard can reach it): the question still shows
  const hidden = typeof host.checkVisibility === "function" ? !host.checkVisibility() : !host.offsetParent;
  if (hidden) host = root;
  const box = el("div", { class: "chooser confirm", role: "alertdialog", "aria-label": "confirm this move", "data-confirm": t.action },
    el("div", { class: "head" }, t.label),
    el("p", { class: "warning-text" }, t.confirm));
  const yes = el("button", { type: "button", class: "confirm-yes danger", onclick: (e) => { e.stopPropagation(); closeChooser(root); act(t.action); } }, "Play it anyway");
  const no = el("button", { type: "button", class: "confirm-no", onclick: (e) => { e.stopPropagation(); closeChooser(root); } }, "Cancel");
  box.append(el("div", { class: "confirm-row" }, yes, no));
  showChooser(box, host, ev, where);
  if (!where) no.focus();
  closeOnEscape(root);
}

function openChooser(root, host, ev, list, act, at, where) {
  closeChooser(root);
  const box = el("div", { class: "chooser", role: "menu", "aria-label": "choose a move", "data-at": at, "data-actions": list.map((t) => t.action).join(",") },
    el("div", { class: "head" }, "Choose:"));
  for (const t of list) {
    box.append(el("button", { type: "button", role: "menuitem", "data-action": t.action, onclick: (e) => { e.stopPropagation(); closeChooser(root); act(t, e, host); } }, t.label));
  }
  box.append(el("button", { type: "button", class: "small", onclick: (e) => { e.stopPropagation(); closeChooser(root); } }, "Cancel"));
  showChooser(box, host, ev, where);
  const first = box.querySelector("button[role=menuitem]");
  if (first && !where) first.focus();
  closeOnEscape(root);
}

// Shows a chooser (the menu of moves or a confirmation) in its host: where it stood before a redraw, or by the click.
function showChooser(box, host, ev, where) {
  host.style.position = "relative";
  host.append(box);
  if (where) {
    box.style.left = where.left;
    box.style.top = where.top;
  } else {
    placeChooser(box, host, ev);
  }
}

let escListener = null;

// Escape closes the open chooser (one listener at a time, removed once used).
function closeOnEscape(root) {
  if (escListener) document.removeEventListener("keydown", escListener);
  escListener = (e) => {
    if (e.key === "Escape") {
      closeChooser(root);
      document.removeEventListener("keydown", escListener);
      escListener = null;
    }
  };
  document.addEventListener("keydown", escListener);
}

// A chooser opens where one clicked, but always wholly on the screen (it is fixed to the viewport, its height
// at most the screen's): on a phone it never runs off the bottom or covers the board beyond the screen.
function placeChooser(box, host, ev) {
  const rect = host.getBoundingClientRect();
  const x = (ev && ev.clientX) || rect.left + rect.width / 2;
  const y = (ev && ev.clientY) || rect.top + rect.height / 2;
  box.style.maxHeight = `${Math.floor(window.innerHeight * 0.6)}px`;
  const w = box.offsetWidth;
  const h = box.offsetHeight;
  const vw = document.documentElement.clientWidth;
  box.style.left = `${Math.max(4, Math.min(x, vw - w - 4))}px`;
  box.style.top = `${Math.max(4, Math.min(y, window.innerHeight - h - 4))}px`;
}

// -- fitting the board to the screen ----------------------------------------------------

// The band around an edge that takes its clicks: 0.36 units across and the edge's length less a little at each
// end, but at least ``need`` (board units) both ways.
function edgeBand(e, u, need) {
  const dx = e.to[0] - e.from[0];
  const dy = e.to[1] - e.from[1];
  const len = Math.hypot(dx, dy) || 1;
  const [ux, uy] = [dx / len, dy / len];
  const across = Math.max(u * 0.18, need / 2);
  const along = Math.max(len / 2 - u * 0.06, need / 2);
  const mx = (e.from[0] + e.to[0]) / 2;
  const my = (e.from[1] + e.to[1]) / 2;
  const [ax, ay, nx, ny] = [ux * along, uy * along, -uy * across, ux * across];
  return [[mx - ax + nx, my - ay + ny], [mx + ax + nx, my + ay + ny], [mx + ax - nx, my + ay - ny], [mx - ax - nx, my - ay - ny]];
}

//: Smallest click target on screen, in CSS pixels (WCAG 2.5.8 asks 24; a little more for fingers).
export const MIN_TARGET_PX = 26;
//: Smallest text on the board (coordinates, a piece's label or badge) on screen, in CSS pixels.
export const MIN_LABEL_PX = 11;
//: Smallest text on screen, in CSS pixels.
export const MIN_TEXT_PX = MIN_LABEL_PX;
//: Smallest cell on screen (the spacing of neighbouring places), in CSS pixels, of a board that scrolls (the scene's
//: ``scrolls``): one whose cells would be smaller on a narrow screen (a phone) is drawn this large, and scrolls
//: sideways within its frame (the page never).
export const MIN_CELL_PX = 25;

// A board wider than its frame: where the player scrolled it stays (the board is redrawn with each view);
// at first, the last move (or else the board's middle) is in view.
function scrollBoard(wrap, board, scale) {
  if (!wrap.scrollWatch) {
    wrap.scrollWatch = true;
    wrap.addEventListener("scroll", () => {
      if (wrap.classList.contains("wide")) wrap.keptScroll = wrap.scrollLeft;
    }, { passive: true });
  }
  if (wrap.keptScroll !== undefined) {
    wrap.scrollLeft = wrap.keptScroll;
    return;
  }
  const vb = board.viewBox.baseVal;
  const last = [...board.querySelectorAll(".hl-last")].map((n) => n.getBBox()).filter((b) => b.width || b.height);
  const x = last.length ? last.reduce((a, b) => a + b.x + b.width / 2, 0) / last.length : vb.x + vb.width / 2;
  wrap.scrollLeft = Math.max(0, (x - vb.x) * scale - wrap.clientWidth / 2);
  wrap.keptScroll = wrap.scrollLeft;
}

// Hands and piles drawn smaller (figures, labels; details only on hover) when what one can click in them would
// otherwise run below the screen.
function compactZones(root) {
  const zones = root.querySelector(".zones");
  if (!zones) return;
  zones.classList.remove("compact");
  const sized = zones.querySelectorAll(".figure.sized");
  for (const f of sized) f.style.height = "";
  const playable = zones.querySelectorAll("button.item");
  if (!playable.length) return;
  const last = Math.max(...[...playable].map((b) => b.getBoundingClientRect().bottom));
  if (last + window.scrollY > window.innerHeight) {
    zones.classList.add("compact");
    for (const f of sized) f.style.height = `${Math.round(Number(f.dataset.h) * 0.85)}px`;
  }
}

// Once the board is sized: pictures drawn at their game's size (Fences' cards) shrink a step at a time, to 55%
// at least, while what one can click in the hands still runs below the screen.
function shrinkSized(root) {
  const zones = root.querySelector(".zones");
  if (!zones || !zones.classList.contains("compact")) return;
  const sized = [...zones.querySelectorAll(".figure.sized")];
  const playable = [...zones.querySelectorAll("button.item")];
  if (!sized.length || !playable.length) return;
  const below = () => Math.max(...playable.map((b) => b.getBoundingClientRect().bottom)) + window.scrollY > window.innerHeight;
  for (const k of [0.75, 0.65, 0.55]) {
    if (!below()) return;
    for (const f of sized) f.style.height = `${Math.round(Number(f.dataset.h) * k)}px`;
  }
}

// How much room lies under the board for what must stay in view with it: the buttons, and the hands or piles
// when they hold something to click (measured from the board's bottom, so it does not depend on the board's size).
function roomBelow(root, wrap) {
  const bottom = wrap.getBoundingClientRect().bottom;
  const zones = root.querySelector(".zones");
  const buttons = root.querySelector(".buttons");
  let end = bottom;
  if (buttons && buttons.childElementCount) end = Math.max(end, buttons.getBoundingClientRect().bottom);
  if (zones && zones.querySelector("button.item")) end = Math.max(end, zones.getBoundingClientRect().bottom);
  return Math.min(end - bottom, window.innerHeight * 0.45);
}

// The room kept under the board: the most it has needed (buttons, the hands and piles one can click, the viewer's
// own whether or not they can be clicked now) since the page was drawn at this size, so the board keeps its size and place from turn to turn
// while hands fill, buttons come and go and a hot seat passes the device.
function reservedBelow(root, wrap) {
  const key = `${window.innerWidth}x${window.innerHeight}`;
  if (!root.reserved || root.reserved.key !== key) root.reserved = { key, px: 0 };
  const bottom = wrap.getBoundingClientRect().bottom;
  // the viewer's own hands and piles (every zone, where none is anyone's: a solo game's pool), not a legend
  const all = [...root.querySelectorAll(".zones .zone")].filter((z) => z.querySelector(".item"));
  const owned = all.some((z) => z.dataset.owner !== "");
  const seat = root.dataset.seat ?? "";
  const mine = all.filter((z) => (owned ? z.dataset.owner !== "" && z.dataset.owner === seat : true));
  const held = mine.length ? Math.max(...mine.map((z) => z.getBoundingClientRect().bottom)) - bottom : 0;
  const now = roomBelow(root, wrap);
  const need = Math.max(now, Math.min(held, window.innerHeight * 0.45));
  // on a wide screen the room kept for the whole game is at most 30% of its height, so one turn's long list of
  // choices (Fences' ways to lay a card) does not keep the board small for good: that turn takes what it needs
  const most = window.innerHeight * (window.matchMedia && window.matchMedia(NARROW).matches ? 0.45 : 0.3);
  root.reserved.px = Math.min(Math.max(root.reserved.px, need), most);
  return Math.max(root.reserved.px, now);
}

// A board wider than its frame says which way there is more of it: ``data-more`` "left", "right", "left right" or
// "" (style.css fades that edge), and its label says it scrolls, for a screen reader.
function markMore(wrap) {
  const more = [];
  if (wrap.classList.contains("wide")) {
    if (wrap.scrollLeft > 1) more.push("left");
    if (wrap.scrollLeft + wrap.clientWidth < wrap.scrollWidth - 1) more.push("right");
  }
  const said = more.join(" ");
  if ((wrap.dataset.more ?? "") !== said) wrap.dataset.more = said;
  if (more.length) wrap.setAttribute("aria-label", "The board is wider than the screen: scroll sideways to see the rest");
  else wrap.removeAttribute("aria-label");
}

// Size the drawn board to the screen (width and height): as wide as its column, never taller than the room left
// below its top, then make every click target at least MIN_TARGET_PX across and every coordinate label at least
// MIN_LABEL_PX high at that size. Called after each drawing and when the window changes size.
export function fitBoard(root) {
  compactZones(root);
  const wrap = root.querySelector(".board-wrap");
  const board = wrap && wrap.querySelector(":scope > svg");
  if (!board || !board.viewBox || !board.viewBox.baseVal) return;
  const vb = board.viewBox.baseVal;
  if (!(vb.width > 0 && vb.height > 0)) return;
  const cs = getComputedStyle(wrap);
  const padX = parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight);
  const width = wrap.clientWidth - padX;
  if (!(width > 0)) return;
  const top = wrap.getBoundingClientRect().top + window.scrollY + parseFloat(cs.paddingTop);
  const room = window.innerHeight - top - parseFloat(cs.paddingBottom) - reservedBelow(root, wrap) - 12;
  const height = Math.max(room, 180);
  const aspect = vb.width / vb.height;
  let w = Math.max(60, Math.min(width, height * aspect));
  // a board that scrolls (a window onto a larger table) whose cells would be too small to read or to hit on this
  // screen is drawn larger and scrolls sideways in its frame
  const widest = board.dataset.scrolls ? (vb.width * MIN_CELL_PX) / (Number(board.dataset.unit) || Infinity) : 0;
  const wide = w < widest && widest > width;
  if (wide) w = widest;
  wrap.classList.toggle("wide", wide);
  board.style.width = `${w}px`;
  board.style.height = `${w / aspect}px`;
  board.style.maxHeight = "none";
  markMore(wrap);
  if (!wrap.moreWatched) {
    wrap.moreWatched = true;
    wrap.addEventListener("scroll", () => markMore(wrap), { passive: true });
  }
  const scale = w / vb.width; // CSS pixels per board unit
  const need = MIN_TARGET_PX / scale;
  for (const g of board.querySelectorAll("g.target")) {
    const place = g.boardPlace;
    const u = g.boardUnit;
    const hit = g.querySelector(".hit");
    if (!place || !hit) continue;
    if (place.type === "edge") {
      hit.setAttribute("points", pts(edgeBand(place.e, u, need)));
    } else if (!place.c.polygon) {
      hit.setAttribute("r", Math.max(u * 0.45, need / 2));
    } else {
      const xs = place.c.polygon.map((p) => p[0]);
      const ys = place.c.polygon.map((p) => p[1]);
      const small = Math.min(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)) < need;
      let extra = g.querySelector(".hit-extra");
      if (small && !extra) {
        extra = svg("circle", { class: "hit hit-extra", fill: "rgba(0,0,0,0)", cx: place.at[0], cy: place.at[1] });
        g.insertBefore(extra, hit.nextSibling);
      }
      if (extra) extra.setAttribute("r", small ? need / 2 : 0);
    }
  }
  let tight = false;
  for (const t of board.querySelectorAll("text.coord, text.caption")) {
    t.setAttribute("font-size", Math.max(Number(t.dataset.size) || 0, MIN_LABEL_PX / scale));
    if (t.dataset.room) {
      t.style.display = "";
      tight = tight || t.getComputedTextLength() > Number(t.dataset.room);
    }
  }
  // when a square's coordinate would not fit inside its square at a readable size, the squares' coordinates are
  // left out, all of them (their targets still name them on hover)
  for (const t of board.querySelectorAll("text.coord[data-room]")) t.style.display = tight ? "none" : "";
  placeCellLabels(board); // at the labels' drawn size
  shrinkSized(root);
  if (wide) scrollBoard(wrap, board, scale);
  // a piece's label (or badge) is readable (at least MIN_LABEL_PX on screen) and stays inside its piece as far as
  // that allows
  const least = MIN_LABEL_PX / scale;
  for (const t of board.querySelectorAll("text.piece-label")) {
    // pieces drawn smaller to leave their cell's name clear (placeCellLabels) keep their labels readable
    const slot = t.closest("g.slot");
    const lo = least / (Number(slot && slot.dataset.scale) || 1);
    const size = Math.max(Number(t.dataset.size) || 0, lo);
    t.setAttribute("font-size", size);
    const fit = Number(t.dataset.fit);
    const len = fit > 0 ? t.getComputedTextLength() : 0;
    if (len > fit) t.setAttribute("font-size", Math.max(lo, (size * fit) / len));
  }
}

// -- what changed between two views: marks and brief animations ------------------------------

const NO_CHANGES = { moved: new Set(), gone: [], fresh: false };

export function reducedMotion() {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function pieceSignatures(scene) {
  const m = new Map();
  for (const p of scene.pieces || []) {
    const sig = JSON.stringify([p.owner, p.kind, p.label, p.height, p.face_down, p.colour, p.shape, p.facing]);
    m.set(p.at, `${m.get(p.at) || ""}${sig}|`);
  }
  return m;
}

// The places whose pieces differ from the view before (``moved``: now holding pieces) and the pieces that were
// there before (``gone``). A view that changes no piece (a player came online, a clock ticked) keeps the marks
// of the last change, not animated again (``fresh`` false).
function boardChanges(root, before, scene) {
  if (!before) return (root.boardChanges = NO_CHANGES);
  const was = pieceSignatures(before);
  const now = pieceSignatures(scene);
  const moved = new Set([...now].filter(([at, sig]) => was.get(at) !== sig).map(([at]) => at));
  const left = new Set([...was].filter(([at, sig]) => now.get(at) !== sig).map(([at]) => at));
  if (!moved.size && !left.size) {
    const kept = root.boardChanges || NO_CHANGES;
    return { moved: kept.moved, gone: [], fresh: false };
  }
  root.boardChanges = { moved, gone: (before.pieces || []).filter((p) => left.has(p.at)), fresh: true };
  return root.boardChanges;
}

function itemKey(z, it) {
  return JSON.stringify([z.id, it.id, it.label, !!it.face_down]);
}

function itemKeys(scene) {
  return new Set((scene.zones || []).flatMap((z) => (z.items || []).map((it) => itemKey(z, it))));
}
