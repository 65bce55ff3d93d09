// People at the table: the chat, the turn clocks, a free seat to take, telling spectators they are watching, and
// telling everyone that the table is seeded (its chance comes from a known seed).
// table.js calls initPeople once, drawPeople(view) after drawing each view, onChat(message) for each chat message
// that arrives on the live socket, and peopleReconnected() when the socket opens again. Chat text is only ever put on
// the page as text (el() makes text nodes), never as HTML.

import { api, el, saveTable, toast } from "./api.js";

const $ = (id) => document.getElementById(id);
let ctx = null; // { tableId, token(), seat(), socket(), player() }
let messages = [];
let clock = null; // the last view's clock, and when it came (performance.now())
let clockAt = 0;
let ticker = null;
let names = [];

export function initPeople(c) {
  ctx = c;
  $("chat-form").addEventListener("submit", sendChat);
  $("take-seat").addEventListener("click", takeSeat);
  loadChat();
}

export function peopleReconnected() {
  loadChat(); // messages said while this page was away
}

async function loadChat() {
  const token = ctx.token();
  if (!token) return;
  try {
    const r = await api(`/api/tables/${encodeURIComponent(ctx.tableId)}/chat`, { token });
    messages = r.messages || [];
    drawChat();
  } catch (e) {
    if (e.status !== 0) toast(e.message);
  }
}

export function onChat(message) {
  if (!message || typeof message.text !== "string") return;
  messages.push(message);
  if (messages.length > 200) messages = messages.slice(-200);
  drawChat();
}

function drawChat() {
  const box = $("chat-log");
  box.replaceChildren(...messages.map((m) => el("li", { "data-seat": m.seat },
    el("span", { class: "who" }, `${m.name}: `), el("span", { class: "text" }, m.text))));
  $("chat-empty").classList.toggle("hidden", messages.length > 0);
  requestAnimationFrame(() => { box.scrollTop = box.scrollHeight; });
}

async function sendChat(ev) {
  ev.preventDefault();
  const input = $("chat-text");
  const text = input.value.trim();
  if (!text) return;
  const ws = ctx.socket();
  const seat = ctx.seat();
  try {
    if (ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify({ type: "chat", seat, text }));
    } else {
      const r = await api(`/api/tables/${encodeURIComponent(ctx.tableId)}/chat`, { method: "POST", token: ctx.token(seat), body: { text } });
      onChat(r.message);
    }
    input.value = "";
  } catch (e) {
    toast(e.message);
  }
}

async function takeSeat() {
  const button = $("take-seat");
  button.disabled = true;
  try {
    const name = $("take-seat-name").value.trim() || null;
    const r = await api(`/api/tables/${encodeURIComponent(ctx.tableId)}/join`, { method: "POST", body: { name } });
    saveTable(r.table, { tokens: [r.token], created: Date.now() });
    location.assign(r.link);
    location.reload();
  } catch (e) {
    toast(e.message);
    button.disabled = false;
  }
}

// Called after table.js has drawn a view.
export function drawPeople(v) {
  const watching = !ctx.player();
  $("watching").classList.toggle("hidden", !watching);
  if (watching) $("undo").classList.add("hidden"); // a spectator takes nothing back
  const free = (v.free_seats || []).length > 0 && v.open && !v.terminal;
  $("take-seat-box").classList.toggle("hidden", !(watching && free));
  $("watching-text").textContent = watching
    ? `You are watching${v.open ? " this open table" : ""}: you see what every player may see, and the chat, but cannot move.`
    : "";
  $("seeded").classList.toggle("hidden", !v.seed_notice); // every seat and spectator is told, as the server says
  $("seeded-text").textContent = v.seed_notice || "";
  $("chat-form").classList.toggle("hidden", watching);
  $("chat-readonly").classList.toggle("hidden", !watching);
  names = v.seats.map((s) => s.name);
  clock = v.clock || null;
  clockAt = performance.now();
  drawClock();
  clearInterval(ticker);
  ticker = clock && clock.running.length ? setInterval(drawClock, 250) : null;
}

function fmt(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  // a turn-based table's days a move: days and hours, then hours and minutes
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function drawClock() {
  const panel = $("clock-panel");
  panel.classList.toggle("hidden", !clock);
  if (!clock) return;
  const spent = (performance.now() - clockAt) / 1000;
  $("clock-kind").textContent = `Turn clock: ${clock.text}. ${clock.rule}`;
  $("clock-list").replaceChildren(...clock.left.map((left, seat) => {
    const running = clock.running.includes(seat);
    const now = running ? Math.max(0, left - spent) : left;
    return el("li", { class: running ? "running" : "", "data-seat": seat, "data-left": now.toFixed(1) },
      el("span", { class: "name" }, names[seat] || ""), el("span", { class: "time" }, fmt(now)));
  }));
}
