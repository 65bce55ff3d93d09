// Optional sounds at a table, one per kind of event, made with WebAudio (no sound files): a move placed, a capture
// (pieces of a player gone from the board: taken, blasted, replaced), your turn, and the end of the game.
// Off by default; the choice is remembered in this browser. The kinds are read from the views alone, the same way
// for every game: how many moves were made, whose pieces the scene shows, whose turn it is and whether it is over.

export const SOUND_KEY = "boardlab.turnSound"; // the key of the first, turn-only sound: an old choice still holds
export const KINDS = ["move", "capture", "turn", "end"];

export function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) === "on"; } catch { return false; }
}

export function setSound(on) {
  try { localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch { /* private mode: not remembered */ }
}

function pieceCounts(scene) {
  const n = new Map();
  for (const p of (scene && scene.pieces) || []) {
    const key = p.owner === null || p.owner === undefined ? "none" : String(p.owner);
    n.set(key, (n.get(key) || 0) + 1);
  }
  return n;
}

// The kinds of event between two views of a table (before: the view drawn last, or null), in the order to play.
export function soundEvents(before, after, beforeScene, afterScene) {
  if (!before || !after) return [];
  const out = [];
  if (after.move_number > before.move_number) {
    const was = pieceCounts(beforeScene);
    const now = pieceCounts(afterScene);
    const lost = [...was].some(([owner, k]) => owner !== "none" && (now.get(owner) || 0) < k);
    out.push(lost ? "capture" : "move");
  }
  if (after.terminal && !before.terminal) out.push("end");
  else if (after.your_turn && !after.terminal && !before.your_turn) out.push("turn"); // not at each step of a turn
  return out;
}

let audio = null;

export function startAudio() {
  if (audio) return audio;
  try { audio = new AudioContext(); } catch { audio = null; }
  return audio;
}

function tone(ctx, t, { type = "sine", from, to = from, peak = 0.18, attack = 0.01, length = 0.2 }) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(from, t);
  if (to !== from) osc.frequency.exponentialRampToValueAtTime(to, t + length);
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(peak, t + attack);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(t);
  osc.stop(t + length + 0.02);
}

function noise(ctx, t, length, peak, cutoff) {
  const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * length), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 2;
  const src = ctx.createBufferSource();
  src.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "lowpass";
  filter.frequency.setValueAtTime(cutoff, t);
  filter.frequency.exponentialRampToValueAtTime(Math.max(60, cutoff / 8), t + length);
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(peak, t);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
  src.connect(filter).connect(gain).connect(ctx.destination);
  src.start(t);
  src.stop(t + length);
}

const VOICES = {
  // a stone set down: a short knock
  move: (ctx, t) => { tone(ctx, t, { type: "triangle", from: 420, to: 160, peak: 0.22, attack: 0.004, length: 0.09 }); noise(ctx, t, 0.05, 0.08, 3000); },
  // a capture or a blast: a rumble of noise under a falling tone
  capture: (ctx, t) => { noise(ctx, t, 0.45, 0.35, 2400); tone(ctx, t, { type: "sawtooth", from: 180, to: 50, peak: 0.08, attack: 0.005, length: 0.35 }); },
  // your turn: two rising notes
  turn: (ctx, t) => { tone(ctx, t, { from: 660, length: 0.1 }); tone(ctx, t + 0.1, { from: 880, length: 0.16 }); },
  // the end of the game: three notes up
  end: (ctx, t) => { [523.25, 659.25, 783.99].forEach((f, k) => tone(ctx, t + k * 0.13, { type: "triangle", from: f, peak: 0.16, length: k === 2 ? 0.5 : 0.18 })); },
};

// Play the kinds one after the other (a move's knock, then "your turn"); nothing when sound is off.
export function playSounds(kinds) {
  if (!kinds.length || !soundOn()) return [];
  const ctx = startAudio();
  if (!ctx) return [];
  try {
    if (ctx.state === "suspended") ctx.resume();
    let t = ctx.currentTime + 0.01;
    for (const kind of kinds) {
      VOICES[kind](ctx, t);
      t += kind === "capture" ? 0.4 : 0.22;
    }
  } catch {
    return []; // no audio on this device: the banner still says what happened
  }
  return kinds;
}
