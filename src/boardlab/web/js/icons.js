// The built-in symbols a scene's pieces and items may show (their "icon"), each drawn on a 24x24 grid in two
// inks: "ink" (the figure) and "bg" (cut-outs such as eyes, in the colour of what the symbol sits on). The names
// are those of boardlab/core/scene.py's Icon type; a test keeps the two lists equal. Nothing here knows a game.
//
// Each symbol is a list of marks: ["p", d] a filled path, ["b", d] a path filled in bg, ["s", d, width] a
// stroked path, ["t", d, width] a path stroked in bg, ["c", cx, cy, r] a filled circle, ["o", cx, cy, r] a bg one.

const SVGNS = "http://www.w3.org/2000/svg";

export const ICONS = {
  // -- animals and figures
  elephant: [
    ["p", "M9 8 Q9 5.5 12 5.5 L19 5.5 Q22.5 5.5 22.5 9 L22.5 19.5 L19.5 19.5 L19.5 15.5 L12.5 15.5 L12.5 19.5 L9.5 19.5 L9.5 14 Z"],
    ["c", 8, 10, 5],
    ["s", "M4.6 12 Q2.6 15.5 3.2 19.6 L5.6 19.6", 2.6],
    ["b", "M9.5 6.8 Q13 7 12.8 10.5 Q12.5 14 9.5 13.5 Q10.8 10 9.5 6.8 Z"],
    ["o", 6.4, 8.6, 0.95],
    ["t", "M5.4 13.2 Q6.4 15 8.4 14.6", 1],
  ],
  monkey: [
    ["c", 4.2, 11, 3.1], ["c", 19.8, 11, 3.1], ["c", 12, 11, 7.6],
    ["o", 4.2, 11, 1.4], ["o", 19.8, 11, 1.4],
    ["b", "M12 8.6 Q13.5 6.6 15.4 7.4 Q17.6 8.6 16.4 11.6 Q18 14 16 16.8 Q12 19.4 8 16.8 Q6 14 7.6 11.6 Q6.4 8.6 8.6 7.4 Q10.5 6.6 12 8.6 Z"],
    ["c", 9.8, 10.6, 1.05], ["c", 14.2, 10.6, 1.05],
    ["s", "M9.8 14.8 Q12 16.6 14.2 14.8", 1.1],
    ["c", 11.2, 13, 0.45], ["c", 12.8, 13, 0.45],
  ],
  mouse: [
    ["p", "M2 16.5 Q6 9 13 9 Q19 9.5 19 16 L19 18 L7 18 Q3.5 18 2 16.5 Z"],
    ["c", 11.5, 8.5, 3.7],
    ["o", 11.5, 8.5, 1.9],
    ["o", 6.6, 13.4, 0.95],
    ["s", "M18.8 16 Q23 15.5 22 11.5 Q21.2 8.5 23 6.5", 1.5],
    ["c", 2.4, 16.4, 0.9],
  ],
  flower: [
    ["c", 12, 6.6, 4.1], ["c", 17.1, 10.3, 4.1], ["c", 15.2, 16.4, 4.1], ["c", 8.8, 16.4, 4.1], ["c", 6.9, 10.3, 4.1],
    ["o", 12, 12.2, 3.2],
  ],
  dragon: [
    ["p", "M2 15 L7 11.5 L8.6 5 L11.3 9.4 L13.4 3.5 L15.2 9 Q21.5 9.2 22.5 13.5 Q22.8 17 19.5 17.5 L14.5 17.6 L12.6 20.5 L11.6 17 L8 16.8 L7 19.5 L5.8 16.6 L2 16.6 Z"],
    ["o", 16.2, 12.3, 1.15],
    ["t", "M8.6 15 L14 14.6", 0.9],
  ],
  goblin: [
    ["p", "M7 9.5 L1 5.5 L6.4 14 Z"], ["p", "M17 9.5 L23 5.5 L17.6 14 Z"],
    ["c", 12, 12.5, 6.6],
    ["o", 9.6, 11, 1.4], ["o", 14.4, 11, 1.4],
    ["b", "M8.6 15 L15.4 15 L14.4 17.2 L9.6 17.2 Z"],
    ["p", "M10 15 L11 16.5 L12 15 L13 16.5 L14 15 Z"],
  ],
  horror: [
    ["p", "M1 22 Q5 16 11 17 Q17 16 23 22 Z"],
    ["s", "M7 18 Q5.5 11 10.5 10.5 Q15.5 10 15 6 Q15 3 18.5 3", 4.2],
    ["o", 18.6, 3.2, 1.1],
  ],
  // -- troops, units and their things
  cavalry: [
    ["p", "M6.5 21.5 L18.5 21.5 L18.5 19.5 Q17.4 15 17.6 11.5 Q18 5 11.5 3 L10.6 1 L9 3.4 Q5.5 5.6 4.2 9.6 L3 13 Q3 15.4 5.4 15.2 L8.4 13.4 Q9.8 14.2 8.4 16.6 Z"],
    ["o", 10.4, 7.2, 1],
  ],
  infantry: [
    ["p", "M12 2 L20 5 L20 11 Q20 18 12 22 Q4 18 4 11 L4 5 Z"],
    ["t", "M12 5.5 L12 18.5 M7.4 10 L16.6 10", 2],
  ],
  archer: [
    ["s", "M7 2.5 Q20 12 7 21.5", 2.3],
    ["s", "M7 2.5 L7 21.5", 0.9],
    ["s", "M2.5 12 L18 12", 1.8],
    ["p", "M22 12 L16.5 8.8 L16.5 15.2 Z"],
    ["s", "M4.5 12 L2 9.6 M4.5 12 L2 14.4", 1.3],
  ],
  hero: [["p", "M12 1.8 L14.9 8.5 L22.1 9.2 L16.6 14 L18.2 21.2 L12 17.4 L5.8 21.2 L7.4 14 L1.9 9.2 L9.1 8.5 Z"]],
  icbm: [
    ["p", "M12 1.5 Q15 4.5 14.4 8.5 L14.4 18.5 L9.6 18.5 L9.6 8.5 Q9 4.5 12 1.5 Z"],
    ["p", "M9.6 13 L6 19.5 L9.6 18.5 Z"], ["p", "M14.4 13 L18 19.5 L14.4 18.5 Z"],
    ["p", "M10.2 19.6 L13.8 19.6 L12 23 Z"],
    ["t", "M9.6 9.5 L14.4 9.5", 1],
  ],
  aircraft: [["p", "M12 1.6 Q13.6 1.6 13.6 5 L13.6 9 L22.4 14 L22.4 16.2 L13.6 13.6 L13.6 18 L16.4 20.2 L16.4 21.8 L12 20.8 L7.6 21.8 L7.6 20.2 L10.4 18 L10.4 13.6 L1.6 16.2 L1.6 14 L10.4 9 L10.4 5 Q10.4 1.6 12 1.6 Z"]],
  submarine: [
    ["p", "M1.5 14.5 Q1.5 10.5 7 10.5 L17.5 10.5 Q22.5 10.5 22.5 14.5 Q22.5 18.5 17.5 18.5 L7 18.5 Q1.5 18.5 1.5 14.5 Z"],
    ["p", "M8.6 10.8 L9.8 6.4 L15.4 6.4 L15.8 10.8 Z"],
    ["s", "M12.4 6.6 L12.4 2.8 L15.2 2.8", 1.3],
    ["o", 6.5, 14.5, 1.2], ["o", 11, 14.5, 1.2], ["o", 15.5, 14.5, 1.2],
  ],
  fleet: [
    ["p", "M1.5 15 L22.5 15 L19.2 20.5 L4.8 20.5 Z"],
    ["p", "M6.5 15.2 L6.5 11 L15.5 11 L15.5 15.2 Z"],
    ["p", "M8.6 11.2 L8.6 7.6 L13 7.6 L13 11.2 Z"],
    ["s", "M10.8 7.8 L10.8 2.6 M8.6 4.4 L13 4.4", 1.2],
    ["s", "M15.4 12.6 L21 10.8", 1.6],
  ],
  spy: [
    ["p", "M2 11.6 L22 11.6 L19.4 9.4 L17.4 3.6 Q12 5 6.6 3.6 L4.6 9.4 Z"],
    ["c", 8.4, 16.4, 3.2], ["c", 15.6, 16.4, 3.2],
    ["s", "M11.4 16 L12.6 16", 1.4],
  ],
  gem: [
    ["p", "M7 3.5 L17 3.5 L21.5 9 L12 21.5 L2.5 9 Z"],
    ["t", "M2.8 9 L21.2 9 M8.8 3.8 L12 9 L15.2 3.8 M12 9 L12 20.5", 0.9],
  ],
  // -- characters
  crown: [
    ["p", "M2.8 17.5 L3.8 6.5 L8.4 11.6 L12 4.4 L15.6 11.6 L20.2 6.5 L21.2 17.5 Z"],
    ["p", "M2.8 18.6 L21.2 18.6 L21.2 21 L2.8 21 Z"],
    ["c", 3.8, 5.4, 1.3], ["c", 12, 3.2, 1.3], ["c", 20.2, 5.4, 1.3],
    ["o", 12, 14.2, 1.5],
  ],
  chalice: [
    ["p", "M5.5 2.5 L18.5 2.5 Q18.8 11.2 12 12.4 Q5.2 11.2 5.5 2.5 Z"],
    ["p", "M10.8 12 L13.2 12 L13.2 18.2 L10.8 18.2 Z"],
    ["p", "M6.6 21.6 Q6.8 17.6 12 17.6 Q17.2 17.6 17.4 21.6 Z"],
    ["t", "M8 5 Q8.6 9 11 10", 1],
  ],
  skull: [
    ["p", "M12 2.5 Q20.5 2.5 20.5 10.8 Q20.5 15 17.2 16.2 L17.2 20.5 L6.8 20.5 L6.8 16.2 Q3.5 15 3.5 10.8 Q3.5 2.5 12 2.5 Z"],
    ["o", 8.8, 11, 2.3], ["o", 15.2, 11, 2.3],
    ["b", "M12 13 L13.4 15.8 L10.6 15.8 Z"],
    ["t", "M9.8 17.6 L9.8 20.5 M12 17.6 L12 20.5 M14.2 17.6 L14.2 20.5", 0.9],
  ],
  sword: [
    ["p", "M12 1 L14.2 4.2 L14.2 15 L9.8 15 L9.8 4.2 Z"],
    ["p", "M5.5 15 L18.5 15 L18.5 17.2 L5.5 17.2 Z"],
    ["p", "M10.9 17 L13.1 17 L13.1 21 L10.9 21 Z"],
    ["c", 12, 22, 1.6],
    ["t", "M12 4 L12 14", 0.8],
  ],
  scroll: [
    ["p", "M7 2.8 L19 2.8 Q21.4 2.8 21.4 5.2 Q21.4 7.6 19 7.6 L17.2 7.6 L17.2 18.8 Q17.2 21.2 14.8 21.2 L5 21.2 Q2.6 21.2 2.6 18.8 Q2.6 16.4 5 16.4 L7 16.4 Z"],
    ["t", "M9.4 9.2 L14.8 9.2 M9.4 12 L14.8 12 M9.4 14.8 L13 14.8", 1.1],
  ],
  jester: [
    ["p", "M6 21 L18 21 L18 16.5 Q18.6 10.4 22.6 13.6 Q22 5.6 14.6 8.6 Q13.6 4.4 12 3.8 Q10.4 4.4 9.4 8.6 Q2 5.6 1.4 13.6 Q5.4 10.4 6 16.5 Z"],
    ["c", 22.4, 14.8, 1.9], ["c", 1.6, 14.8, 1.9], ["c", 12, 3, 1.7],
    ["t", "M6 18.6 L18 18.6", 1],
    ["o", 9, 19.8, 0.7], ["o", 12, 19.8, 0.7], ["o", 15, 19.8, 0.7],
  ],
  // -- moves and blows
  forward: [["p", "M12 2 L20.5 11 L15.2 11 L15.2 22 L8.8 22 L8.8 11 L3.5 11 Z"]],
  "turn-around": [
    ["s", "M7.5 22 L7.5 9.5 Q7.5 3.8 12.5 3.8 Q17.5 3.8 17.5 9.5 L17.5 13.5", 3.2],
    ["p", "M12.4 13 L22.6 13 L17.5 20.5 Z"],
  ],
  "veer-left": [
    ["s", "M16.5 22 L16.5 14 Q16.5 8 10 8", 3.2],
    ["p", "M10.6 2.6 L2.6 8 L10.6 13.4 Z"],
  ],
  "veer-right": [
    ["s", "M7.5 22 L7.5 14 Q7.5 8 14 8", 3.2],
    ["p", "M13.4 2.6 L21.4 8 L13.4 13.4 Z"],
  ],
  "strafe-left": [["p", "M2 12 L10.5 4 L10.5 9 L22 9 L22 15 L10.5 15 L10.5 20 Z"]],
  "strafe-right": [["p", "M22 12 L13.5 4 L13.5 9 L2 9 L2 15 L13.5 15 L13.5 20 Z"]],
  claw: [
    ["s", "M5.5 3 Q9 12 5 21", 2.5],
    ["s", "M12 2 Q15.6 12 11.2 22", 2.5],
    ["s", "M18.5 3 Q22 12 18 21", 2.5],
  ],
  fire: [
    ["p", "M12 1.8 Q20.5 9 18.6 15.4 Q17.4 21.6 12 22.2 Q6.6 21.6 5.6 15.6 Q4.8 10.4 8.8 6 Q8.8 10 11 11.2 Q10 6 12 1.8 Z"],
    ["b", "M12 12.6 Q15.6 16 13.8 19.2 Q12 20.8 10.4 19.2 Q9.2 16.2 12 12.6 Z"],
  ],
  tail: [
    ["s", "M2.5 5 Q14 3.5 14 12 Q14 18 19.5 18", 3],
    ["p", "M18.6 13.4 L23.4 18 L18.6 22.6 L19.8 18 Z"],
  ],
  wing: [["p", "M2.5 20.5 Q3.5 7.5 21.5 2.5 Q18.6 7.6 20.6 11 Q16.4 11 16.2 15.2 Q12.2 14.4 11.2 18.2 Q7 17.2 2.5 20.5 Z"]],
  wound: [["p", "M12 1.8 Q19.4 11 19.4 15 A7.4 7.4 0 0 1 4.6 15 Q4.6 11 12 1.8 Z"], ["t", "M8.4 15 Q8.6 17.8 11 18.4", 1.2]],
};

export function iconNames() {
  return Object.keys(ICONS);
}

function node(tag, attrs) {
  const n = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  return n;
}

// A <g class="icon"> drawing symbol ``name`` in the box centred on cx, cy, ``size`` across, in ``ink`` with
// cut-outs in ``bg``; null for an unknown name. ``outline``: a thin contrasting edge round the figure (on a board).
//: The symbols drawn looking right (the others look left or straight out), for mirror().
const LOOKS_RIGHT = new Set(["dragon"]);

// Whether a symbol on a piece facing ``facing`` degrees (clockwise from up) is drawn mirrored, so that it looks
// the way the piece faces: right for 0 < facing < 180, left for 180 < facing < 360, as drawn when up or down.
export function mirrored(name, facing) {
  if (facing === null || facing === undefined) return false;
  const f = ((Number(facing) % 360) + 360) % 360;
  if (f === 0 || f === 180) return false;
  return (f < 180) !== LOOKS_RIGHT.has(name);
}

export function drawIcon(name, cx, cy, size, ink, bg, outline, mirror) {
  const marks = ICONS[name];
  if (!marks) return null;
  const s = size / 24;
  const flip = mirror ? ` translate(24 0) scale(-1 1)` : "";
  const g = node("g", { class: "icon", "data-icon": name, transform: `translate(${cx - size / 2} ${cy - size / 2}) scale(${s})${flip}` });
  const edge = outline ? { stroke: outline, "stroke-width": 1.1, "stroke-linejoin": "round", "paint-order": "stroke" } : {};
  for (const m of marks) {
    const [kind] = m;
    if (kind === "p") g.append(node("path", { d: m[1], fill: ink, ...edge }));
    else if (kind === "b") g.append(node("path", { d: m[1], fill: bg }));
    else if (kind === "s") {
      if (outline) g.append(node("path", { d: m[1], fill: "none", stroke: outline, "stroke-width": m[2] + 1.6, "stroke-linecap": "round", "stroke-linejoin": "round" }));
      g.append(node("path", { d: m[1], fill: "none", stroke: ink, "stroke-width": m[2], "stroke-linecap": "round", "stroke-linejoin": "round" }));
    } else if (kind === "t") g.append(node("path", { d: m[1], fill: "none", stroke: bg, "stroke-width": m[2], "stroke-linecap": "round", "stroke-linejoin": "round" }));
    else if (kind === "c") g.append(node("circle", { cx: m[1], cy: m[2], r: m[3], fill: ink, ...edge }));
    else if (kind === "o") g.append(node("circle", { cx: m[1], cy: m[2], r: m[3], fill: bg }));
  }
  return g;
}

// The ink that reads on a fill: dark on light colours, white on dark ones.
export function inkOn(fill) {
  const m = /^#([0-9a-f]{6})$/i.exec(fill || "");
  if (!m) return "#ffffff";
  const v = parseInt(m[1], 16);
  const [r, g, b] = [(v >> 16) & 255, (v >> 8) & 255, v & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#1f1d1a" : "#ffffff";
}
