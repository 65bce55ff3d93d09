// A game table: live views over WebSocket, moves by clicking, undo, hot-seat pass screens, invites.

import { actorName, api, download, el, saveTable, savedTables, showRules, toast } from "./api.js";
import { NARROW, closeChooser, colour, expandScene, fitBoard, hasGeometry, loadGeometry, rememberGeometry, renderScene } from "./render.js";
import { drawPeople, initPeople, onChat, peopleReconnected } from "./people.js";
import { drawEndings, endingsPresence, initEndings } from "./endings.js";
import { KINDS, playSounds, setSound, soundEvents, soundOn, startAudio } from "./sounds.js";

const root = document.getElementById("table-root");
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const seatToken = new Map(); // seat number, or "spectator" -> token
let mySeats = []; // seats this browser holds
let hidden = false; // the game hides information from some seats
let viewSeat = null; // seat whose view is shown (null: the public view)
let passFor = null; // seat waiting behind the pass-the-device screen
let view = null;
let busy = false;
let ws = null;
let backoff = 500;
let pingTimer = null;
let closedForGood = false;

const $ = (id) => document.getElementById(id);
const MODE_TEXT = { ai: "against the AI", hotseat: "hot-seat", online: "online" };

function readTokens() {
  const m = /(?:^|[#&])t=([^&]*)/.exec(location.hash);
  if (m) {
    const list = decodeURIComponent(m[1]).split(",").filter(Boolean);
    saveTable(tableId, { tokens: list });
    return list;
  }
  return (savedTables()[tableId] || {}).tokens || [];
}

function tokenFor(seat) {
  if (seat === null) return seatToken.get("spectator") || [...seatToken.values()][0];
  return seatToken.get(seat);
}

function setBanner(kind, title, detail, colour) {
  const b = $("banner");
  b.dataset.kind = kind;
  $("banner-title").textContent = title;
  const d = $("banner-detail");
  // the prompt keeps a fixed number of lines (the board below stays put); a longer one is cut short, and shown
  // whole on hover (its title) or by a click on the banner, until the next prompt
  if (d.textContent !== (detail || "")) b.classList.remove("open");
  d.textContent = detail || "";
  d.title = detail || "";
  b.title = title;
  b.style.borderLeftColor = colour || "";
  requestAnimationFrame(() => b.classList.toggle("clamped", d.scrollHeight > d.clientHeight + 1));
}

function setConn(state) {
  const c = $("conn");
  c.dataset.state = state;
  c.textContent = { live: "live", down: "reconnecting…", connecting: "connecting…" }[state] || state;
}

function desiredSeat(v) {
  if (!mySeats.length) return null;
  if (mySeats.length === 1) return mySeats[0];
  const acting = v.to_act.filter((s) => mySeats.includes(s));
  if (acting.length) return acting[0];
  if (hidden) return null;
  return mySeats.includes(viewSeat) ? viewSeat : mySeats[0];
}

function onView(v) {
  if (!v || v.seat !== viewSeat) return; // a view of a seat this page no longer shows
  if (!hasGeometry(v.scene)) {
    // the board's shapes come once; fetch them, then show this view (unless a newer one came meanwhile)
    loadGeometry(v.scene.geometry).then(() => onView(v), (e) => toast(e.message));
    return;
  }
  if (view && view.seat === v.seat && v.revision < view.revision) return;
  const want = desiredSeat(v);
  if (want === viewSeat) {
    hidePass();
    view = v;
    draw();
    return;
  }
  if (hidden && want !== null && mySeats.length > 1) {
    // hot-seat with hidden information: hide this seat's view, show the public one behind a pass screen
    if (viewSeat !== null) {
      viewSeat = null;
      view = null;
      clearBoard();
      requestView();
    } else {
      view = v;
      draw();
    }
    showPass(want, v);
    return;
  }
  viewSeat = want;
  view = v;
  draw();
  requestView();
}

function requestView() {
  if (ws && ws.readyState === WebSocket.OPEN) {
    ws.send(JSON.stringify({ type: "view_as", token: viewSeat === null ? null : tokenFor(viewSeat) }));
  }
  fetchView();
}

async function fetchView() {
  const seat = viewSeat;
  const pub = seat === null && !seatToken.has("spectator");
  try {
    const v = await api(`/api/tables/${encodeURIComponent(tableId)}${pub ? "?public=true" : ""}`, { token: tokenFor(seat) });
    if (seat === viewSeat) onView(v);
  } catch (e) {
    if (e.status === 403 || e.status === 404) fatal(e.message);
  }
}

function showPass(seat, v) {
  passFor = seat;
  const s = v.seats[seat];
  $("pass-name").textContent = `${s.name}: your turn`;
  $("pass-swatch").style.background = colour(s.colour, "#888");
  $("pass-go").textContent = `I am ${s.name}: show my view`;
  $("pass").classList.remove("hidden");
  document.body.style.overflow = "hidden";
  $("pass-go").focus();
}

function hidePass() {
  passFor = null;
  $("pass").classList.add("hidden");
  document.body.style.overflow = "";
}

$("pass-go").addEventListener("click", () => {
  if (passFor === null) return;
  viewSeat = passFor;
  hidePass();
  view = null;
  requestView();
});

function clearBoard() {
  closeChooser(root);
  stopLooking(false);
  drawnFor = undefined;
  root.querySelector(".board-wrap").replaceChildren();
  root.querySelector(".zones").replaceChildren();
  root.querySelector(".buttons").replaceChildren();
  root.querySelector(".legal-list").replaceChildren();
  $("log").replaceChildren(); // the log said what that seat may know: none of it stays behind the pass screen
  $("log").dataset.seat = "";
  shownLog = [];
  root.dataset.seat = ""; // no seat's view is shown until the next one is drawn
}

function fatal(message) {
  closedForGood = true;
  setBanner("wait", "This table cannot be shown", message);
  root.dataset.ready = "error";
  if (ws) ws.close();
}

let lastDrawMs = 0;
let drawnFor; // the seat whose live view the board shows (undefined: none, or a past position)
let drawPending = false;

// Views can arrive in quick succession (a move, then the AI's answer): draw once per frame, the latest.
function draw() {
  if (drawPending) return;
  drawPending = true;
  requestAnimationFrame(() => {
    drawPending = false;
    const started = performance.now();
    drawView();
    lastDrawMs = performance.now() - started;
  });
}

function drawView() {
  const v = view;
  if (!v) return;
  if (looking && looking.seat !== v.seat) stopLooking(false); // another seat's view now: its own log
  if (looking) {
    drawWhileLooking(v);
    return;
  }
  const t = v.table;
  root.dataset.ready = "1";
  root.dataset.revision = String(v.revision);
  root.dataset.moveNumber = String(v.move_number);
  root.dataset.seat = v.seat === null ? "" : String(v.seat);
  root.dataset.terminal = v.terminal ? "1" : "0";
  root.dataset.yourTurn = v.your_turn ? "1" : "0";
  $("crumb").textContent = `${t.title} · ${MODE_TEXT[t.mode] || t.mode}`;
  document.title = `${t.title} · boardlab`;
  const acting = v.to_act.length ? v.seats[v.to_act[0]] : null;
  const winner = v.result && v.result.winners.length ? v.seats[v.result.winners[0]] : null;
  const stripe = (v.terminal ? winner : acting)?.colour;
  setBanner(v.banner.kind, v.banner.title, v.banner.detail, stripe ? colour(stripe, "") : "");
  const undo = $("undo");
  undo.disabled = !v.can_undo;
  undo.textContent = v.undo_label || "Undo";
  undo.classList.toggle("hidden", v.terminal); // nothing to take back or withdraw once the game is over
  $("record").classList.toggle("hidden", !v.record_available);
  const replay = $("replay-link");
  replay.classList.toggle("hidden", !v.terminal);
  // the replay opens in any browser from this link: it carries the public (spectator) token where this page has it
  const pub = seatToken.get("spectator") || tokenOfLink((savedTables()[tableId] || {}).links?.spectator || "");
  replay.href = `/replay?table=${encodeURIComponent(tableId)}${pub ? `#t=${encodeURIComponent(pub)}` : ""}`;
  const mover = v.seat !== null ? colour(v.seats[v.seat].colour, undefined) : undefined;
  const scene = expandScene(v.scene);
  // what changed since the view drawn before is marked and animated: between two views of one seat, or of any
  // seats when nothing is hidden (hot-seat play switches seats every turn)
  const animate = drawnFor !== undefined && (drawnFor === v.seat || !hidden);
  renderScene(root, scene, { interactive: v.your_turn, onAction: play, legal: v.legal, moverColour: mover, animate, viewer: v.seat });
  drawnFor = v.seat;
  soundSignal(v, scene);
  $("status-panel").classList.toggle("hidden", !(scene.status || []).length);
  drawSeats(v);
  drawLog(v);
  $("notes").replaceChildren(...(v.notes || []).map((n) => el("p", {}, n)));
  $("notes").classList.toggle("hidden", !(v.notes || []).length);
  drawInvite(v);
  drawResult(v);
  drawPeople(v); // people.js: chat, clocks, "You are watching"
  drawEndings(v); // endings.js: resign, draw, abort, claim the win, who is away
}

// -- the end of a game: a result panel in view, with Rematch, New game and Back to the lobby --------------
let resultHidden = false; // the player hid the panel to look at the board (the "Result" button brings it back)

function drawResult(v) {
  const panel = $("result");
  $("show-result").classList.toggle("hidden", !v.terminal || !resultHidden);
  if (!v.terminal) {
    panel.classList.add("hidden");
    resultHidden = false;
    return;
  }
  panel.classList.toggle("hidden", resultHidden);
  $("result-title").textContent = v.banner.title;
  $("result-how").textContent = v.banner.detail || "";
  const winners = (v.result && v.result.winners) || [];
  $("result-seats").replaceChildren(...v.seats.map((s) => el("li", { class: winners.includes(s.seat) ? "won" : "", "data-seat": s.seat },
    el("span", { class: "swatch", style: { background: colour(s.colour, "#888") } }),
    el("span", { class: "name" }, s.you ? `${s.name} (you)` : s.name),
    winners.includes(s.seat) ? el("span", { class: "tag on" }, "winner") : "")));
  const scores = (expandScene(v.scene).status || []).map((line) => el("li", {}, ...resultLine(String(line))));
  $("result-scores").replaceChildren(...scores);
  $("result-scores").classList.toggle("hidden", !scores.length);
  const button = $("rematch");
  const player = mySeats.length > 0;
  button.classList.toggle("hidden", !player && !v.rematch);
  button.textContent = v.rematch ? (player ? "Play the rematch" : "Watch the rematch") : "Rematch";
  const note = $("result-note");
  note.textContent = v.rematch ? "A rematch is ready: the same game, everyone one seat on." : "";
  note.classList.toggle("hidden", !v.rematch);
  $("new-game").href = `/#new=${encodeURIComponent(v.table.game)}`;
}

function tokenOfLink(link) {
  return decodeURIComponent(String(link).split("#t=")[1] || "");
}

async function rematch() {
  if (!view || !view.terminal) return;
  const button = $("rematch");
  button.disabled = true;
  try {
    const held = mySeats.map((s) => seatToken.get(s)).filter(Boolean);
    if (!held.length) {
      if (view.rematch) location.href = view.rematch.link;
      return;
    }
    // one request per seat this browser holds: each answers with that seat's own place in the rematch
    let table = null;
    const tokens = [];
    for (const t of held) {
      const r = await api(`/api/tables/${encodeURIComponent(tableId)}/rematch`, { method: "POST", token: t });
      table = r.table;
      const tok = tokenOfLink(r.link);
      if (tok && !tokens.includes(tok)) tokens.push(tok);
    }
    saveTable(table, { game: view.table.game, mode: view.table.mode, created: Date.now(), rematch_of: tableId, tokens });
    location.href = `/table/${encodeURIComponent(table)}#t=${tokens.map(encodeURIComponent).join(",")}`;
  } catch (e) {
    toast(e.message);
  } finally {
    button.disabled = false;
  }
}

$("rematch").addEventListener("click", rematch);
$("result-close").addEventListener("click", () => { resultHidden = true; if (view) drawResult(view); $("show-result").focus(); });
$("show-result").addEventListener("click", () => { resultHidden = false; if (view) drawResult(view); });

// who is online changed: the server sends one flag per seat instead of a whole view
function onPresence(present) {
  if (!view || !Array.isArray(present)) return;
  for (const s of view.seats) if (typeof present[s.seat] === "boolean") s.present = present[s.seat];
  drawSeats(view);
}

// A long account in the result's lines (Combat's narrative of the last battle) is folded under its heading, so the
// result reads short: "Combat ▸" opens the whole story.
const LONG_LINE = 140;
function resultLine(line) {
  if (line.length <= LONG_LINE) return [line];
  const m = /^([^:.]{1,40}):\s*([\s\S]*)$/.exec(line);
  const [head, body] = m ? [m[1], m[2]] : ["The whole account", line];
  return [el("details", { class: "account" }, el("summary", {}, head), el("p", {}, body))];
}

function drawSeats(v) {
  const players = v.scene.players || [];
  const list = v.seats.map((s) => {
    const p = players.length === v.seats.length ? players[s.seat] : null;
    const tags = [];
    if (s.you) tags.push(el("span", { class: "tag" }, "you"));
    if (s.kind === "ai") tags.push(el("span", { class: "tag" }, `AI · ${s.agent}`));
    else if (!s.you) tags.push(el("span", { class: `tag ${s.present ? "on" : "off"}` }, s.present ? "online" : "away"));
    if (s.thinking) tags.push(el("span", { class: "tag" }, "thinking…"));
    if (s.submitted) tags.push(el("span", { class: "tag on" }, "has chosen"));
    const li = el("li", { class: s.to_act ? "to-act" : "", "data-seat": s.seat },
      el("span", { class: "swatch", style: { background: colour(s.colour, "#888") } }),
      el("span", { class: "name" }, s.name), ...tags);
    // the server words the game's detail for players (s.detail: "Red", not "seat 0 (Red)"); older servers did not
    const detail = s.detail ?? [p && p.name && p.name !== s.name ? p.name : null, p && p.detail].filter(Boolean).join(" · ");
    if (detail) li.append(el("span", { class: "detail" }, detail));
    return li;
  });
  $("seats").replaceChildren(...list);
}

let shownLog = []; // the log entries on screen, to add only new ones

function drawLog(v) {
  const box = $("log");
  const same = (a, b) => a[0] === b[0] && a[1] === b[1];
  let keep = 0;
  while (keep < shownLog.length && keep < v.log.length && same(shownLog[keep], v.log[keep])) keep++;
  if (keep === shownLog.length && keep === v.log.length && box.dataset.seat === String(v.seat)) return;
  if (keep < shownLog.length || box.dataset.seat !== String(v.seat)) {
    box.replaceChildren();
    keep = 0;
  }
  const last = box.querySelector("li.last");
  if (last) last.classList.remove("last");
  for (let i = keep; i < v.log.length; i++) {
    const [actor, text] = v.log[i];
    box.append(el("li", { value: i + 1, tabindex: 0, role: "button", title: "Show the position after this move",
      "data-step": (v.log_after || [])[i] ?? "", onclick: () => lookAt(i), onkeydown: (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); lookAt(i); }
      } }, el("span", { class: "who" }, `${actorName(actor, v.seats, v.seat)}: `), text));
  }
  if (box.lastElementChild) box.lastElementChild.classList.add("last");
  box.style.setProperty("--digits", String(String(v.log.length).length)); // room for "100." and on
  box.dataset.seat = String(v.seat);
  shownLog = v.log;
  markLooking();
  if (!looking) requestAnimationFrame(() => { box.scrollTop = box.scrollHeight; });
}

// -- looking back: the position after a log entry, read-only, while the game goes on ---------------------
let looking = null; // {index, step, seat, scene, seen (log length when it opened)}
let lookRequest = 0;

async function lookAt(i) {
  if (!view) return;
  const step = (view.log_after || [])[i];
  if (step === undefined) return;
  const seat = viewSeat;
  const pub = seat === null && !seatToken.has("spectator");
  const ask = ++lookRequest;
  try {
    const p = await api(`/api/tables/${encodeURIComponent(tableId)}/positions/${step}${pub ? "?public=true" : ""}`, { token: tokenFor(seat) });
    if (ask !== lookRequest || seat !== viewSeat || !view) return;
    looking = { index: i, step, seat: view.seat, scene: p.scene, seen: view.log.length };
    drawnFor = undefined;
    renderScene(root, p.scene, { interactive: false, viewer: view.seat });
    drawWhileLooking(view);
    $("look-back").focus();
  } catch (e) {
    toast(e.message);
  }
}

// A view that came while looking back: the players and the log follow it; the board stays on the past position.
function drawWhileLooking(v) {
  root.dataset.looking = String(looking.index + 1);
  root.dataset.revision = String(v.revision);
  root.dataset.yourTurn = "0"; // nothing can be played from a past position
  const entry = v.log[looking.index];
  const who = entry ? `${actorName(entry[0], v.seats, v.seat)}: ${entry[1]}` : "";
  const newer = v.log.length - looking.seen;
  const meanwhile = newer > 0 ? ` The game went on meanwhile: ${newer} new ${newer === 1 ? "move" : "moves"}.` : "";
  setBanner("look", `Looking at move ${looking.index + 1} of ${v.log.length}`, `${who}.${meanwhile}`, "");
  $("look-back").classList.remove("hidden");
  drawSeats(v);
  drawLog(v);
  markLooking();
  soundSignal(v, expandScene(v.scene)); // the game goes on meanwhile: its sounds still play
}

function markLooking() {
  for (const li of $("log").querySelectorAll("li.looking")) {
    li.classList.remove("looking");
    li.removeAttribute("aria-current");
  }
  if (!looking) return;
  const li = $("log").children[looking.index];
  if (li) {
    li.classList.add("looking");
    li.setAttribute("aria-current", "true");
  }
}

function stopLooking(redraw = true) {
  if (!looking) return;
  looking = null;
  lookRequest++;
  root.dataset.looking = "";
  $("look-back").classList.add("hidden");
  markLooking();
  if (redraw) draw();
}

$("look-back").addEventListener("click", () => stopLooking());
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && looking && !root.querySelector(".chooser")) stopLooking();
});

// -- optional sounds: a move, a capture, your turn, the end (sounds.js; off by default, remembered) ------------
let turnBeeps = 0;
const soundsPlayed = { move: 0, capture: 0, turn: 0, end: 0 };
let heard = null; // the view the last sounds were judged against (null: loading a page is no event)

function showSound() {
  const b = $("sound");
  const on = soundOn();
  b.setAttribute("aria-pressed", on ? "true" : "false");
  b.textContent = on ? "Sound on" : "Sound off";
  b.title = on
    ? "Sounds play for moves, captures, your turn and the end of the game (click to turn them off)"
    : "Play sounds for moves, captures, your turn and the end of the game";
}

function soundSignal(v, scene) {
  const kinds = soundEvents(heard && heard.view, v, heard && heard.scene, scene);
  heard = { view: v, scene };
  for (const kind of playSounds(kinds)) {
    soundsPlayed[kind]++;
    if (kind === "turn") turnBeeps++;
  }
  root.dataset.turnBeeps = String(turnBeeps);
  root.dataset.sounds = KINDS.map((k) => `${k}:${soundsPlayed[k]}`).join(" ");
}

$("sound").addEventListener("click", () => {
  setSound(!soundOn());
  showSound();
  if (soundOn()) startAudio(); // a click may start audio
});
showSound();

function drawInvite(v) {
  const saved = savedTables()[tableId] || {};
  const links = saved.links;
  const box = $("invite");
  if (!links || v.table.mode !== "online") {
    box.classList.add("hidden");
    return;
  }
  box.classList.remove("hidden");
  const rows = [];
  for (const s of v.seats) {
    const url = links.seats && links.seats[String(s.seat)];
    if (!url || s.seat === saved.host_seat) continue;
    rows.push(linkRow(s.name, url));
  }
  if (links.spectator) rows.push(linkRow("Spectators", links.spectator));
  $("invite-rows").replaceChildren(el("p", { class: "small muted" }, "Send each player their own link; whoever has a link plays that seat."), ...rows);
}

function linkRow(name, url) {
  const input = el("input", { value: url, readonly: true, "aria-label": `${name} link`, onfocus: (e) => e.target.select() });
  return el("div", { class: "row" }, el("span", {}, name), input,
    el("button", { type: "button", class: "small", onclick: async () => {
      try { await navigator.clipboard.writeText(url); toast("Link copied."); } catch { input.select(); toast("Select the link and copy it."); }
    } }, "Copy"));
}

// Moves and undos go over the live socket when it is open (acknowledged once stored), else over HTTP.
let nextId = 0;
const acks = new Map();

function viaSocket(kind, body) {
  return new Promise((resolve, reject) => {
    const id = ++nextId;
    const timer = setTimeout(() => { acks.delete(id); reject(new Error("no answer from the server")); }, 15000);
    acks.set(id, (ack) => { clearTimeout(timer); resolve(ack); });
    ws.send(JSON.stringify({ type: kind, id, seat: viewSeat, ...body }));
  });
}

async function send(kind, body) {
  if (ws && ws.readyState === WebSocket.OPEN && viewSeat !== null) {
    const ack = await viaSocket(kind, body);
    if (!ack.ok) {
      const err = new Error(ack.message);
      err.status = ack.status;
      throw err;
    }
    return null; // the new view arrives on the socket, just before the acknowledgement
  }
  const r = await api(`/api/tables/${encodeURIComponent(tableId)}/${kind === "move" ? "moves" : "undo"}`, {
    method: "POST",
    token: tokenFor(viewSeat),
    body,
  });
  return r.view;
}

// One change to the table at a time (a move or an undo): the new view, or why not (a stale view is fetched again).
// A move also marks the page busy (data-busy) while it is on its way.
async function change(what, body, marked) {
  busy = true;
  if (marked) root.dataset.busy = "1";
  try {
    const v = await send(what, { ...body, revision: view.revision });
    if (v) onView(v);
  } catch (e) {
    toast(e.message);
    if (e.status === 409 || !e.status) fetchView();
  } finally {
    busy = false;
    if (marked) root.dataset.busy = "0";
  }
}

async function play(action) {
  if (busy || !view || !view.your_turn) return;
  await change("move", { action }, true);
}

$("undo").addEventListener("click", async () => {
  if (busy || !view) return;
  await change("undo", {}, false);
});

$("rules").addEventListener("click", () => {
  if (view) showRules(view.table.game, view.table.title);
});

$("record").addEventListener("click", async () => {
  try {
    const res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/record`, {
      headers: { Authorization: `Bearer ${tokenFor(viewSeat)}` },
    });
    const text = await res.text();
    if (!res.ok) throw new Error(JSON.parse(text).message);
    download(`${view.table.game}-${tableId}.json`, text);
  } catch (e) {
    toast(e.message || "The record could not be downloaded.");
  }
});

function connect() {
  if (closedForGood) return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const sock = new WebSocket(`${proto}://${location.host}/api/tables/${encodeURIComponent(tableId)}/ws`);
  ws = sock;
  sock.onopen = () => {
    backoff = 500;
    setConn("live");
    peopleReconnected();
    sock.send(JSON.stringify({ type: "hello", tokens: [...seatToken.values()], view: viewSeat === null ? null : tokenFor(viewSeat) }));
    clearInterval(pingTimer);
    pingTimer = setInterval(() => {
      if (sock.readyState === WebSocket.OPEN) sock.send('{"type":"ping"}');
    }, 25000);
  };
  sock.onmessage = (e) => {
    let m;
    try { m = JSON.parse(e.data); } catch { return; }
    if (m.type === "ack") {
      const done = acks.get(m.id);
      if (done) { acks.delete(m.id); done(m); }
    } else if (m.type === "geometry") rememberGeometry(m.geometry);
    else if (m.type === "view") onView(m.view);
    else if (m.type === "presence") { onPresence(m.present); endingsPresence(m); }
    else if (m.type === "chat") onChat(m.message);
    else if (m.type === "error") toast(m.message);
  };
  sock.onclose = (e) => {
    if (ws !== sock) return;
    clearInterval(pingTimer);
    for (const [id, done] of acks) { acks.delete(id); done({ ok: false, status: 0, message: "The connection dropped; reconnecting." }); }
    if (e.code === 4403 || e.code === 4404 || e.code === 4410) {
      fatal(e.code === 4410 ? "This table was abandoned and has expired." : "This link is not valid for this table.");
      return;
    }
    setConn("down");
    setTimeout(() => { connect(); fetchView(); }, backoff);
    backoff = Math.min(backoff * 2, 4000);
  };
}

async function init() {
  // the text list of moves starts folded (one click opens it): the board comes first
  window.addEventListener("resize", () => fitBoard(root));
  // a prompt cut short is shown whole by a click on the banner (and folded again by another)
  $("banner").addEventListener("click", () => {
    const b = $("banner");
    if (b.classList.contains("clamped") || b.classList.contains("open")) b.classList.toggle("open");
  });
  // crossing from a wide screen to a narrow one (a phone turned, a window narrowed) reorders the zones: draw again
  if (typeof window.matchMedia === "function") window.matchMedia(NARROW).addEventListener("change", () => draw());
  const tokens = readTokens();
  if (!tableId || !tokens.length) {
    fatal("Open this table with an invite link: ask the host for your seat's link or the spectator link.");
    return;
  }
  let first = null;
  for (const t of tokens) {
    try {
      const v = await api(`/api/tables/${encodeURIComponent(tableId)}`, { token: t });
      seatToken.set(v.seat === null ? "spectator" : v.seat, t);
      if (!first) first = v;
    } catch (e) {
      if (e.status === 404) { fatal(e.message); return; }
      if (e.status === 0) { setConn("down"); setTimeout(init, 1500); return; }
    }
  }
  if (!first) {
    fatal("This link is not valid for this table.");
    return;
  }
  mySeats = [...seatToken.keys()].filter((k) => k !== "spectator").sort((a, b) => a - b);
  hidden = !first.table.perfect_information;
  const want = desiredSeat(first);
  if (hidden && mySeats.length > 1) {
    viewSeat = null; // start on the public view; the pass screen leads to the seat to move
  } else {
    viewSeat = want;
  }
  initPeople({
    tableId,
    token: (seat = viewSeat) => tokenFor(seat),
    seat: () => (viewSeat !== null ? viewSeat : mySeats[0] ?? null),
    socket: () => ws,
    player: () => mySeats.length > 0,
  });
  initEndings({ tableId, token: () => tokenFor(viewSeat), onView: (v) => onView(v), refresh: () => fetchView() });
  if (first.seat === viewSeat) onView(first);
  else fetchView();
  connect();
}

// for tests and curious people: the current view, and a way to drop the live connection (it reconnects)
window.boardlab = {
  get view() { return view; },
  get viewSeat() { return viewSeat; },
  get lastDrawMs() { return lastDrawMs; },
  get turnBeeps() { return turnBeeps; },
  get sounds() { return { ...soundsPlayed }; },
  get looking() { return looking ? looking.index + 1 : null; },
  redraw() { draw(); },
  play,
  dropSocket() { if (ws) ws.close(); },
};
init();
