// Quick play in the lobby: seek an opponent for a game (rated when signed in, or casual), wait while the page asks
// the server every 2 s (a seek whose page goes away expires), and go to the table once an opponent is found.

import { whoami } from "./account.js";
import { api, el, saveTable, toast } from "./api.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 2000;
let seek = null; // { id, token, game }
let timer = null;

const CLOCKS = [
  { value: "", text: "No clock" },
  { value: "move:30", text: "30 seconds a move" },
  { value: "move:120", text: "2 minutes a move" },
  { value: "game:300", text: "5 minutes each, whole game" },
  { value: "game:900", text: "15 minutes each, whole game" },
];

function clockOf(value) {
  if (!value) return null;
  const [kind, seconds] = value.split(":");
  return { kind, seconds: Number(seconds) };
}

function status(text, ...extra) {
  $("seek-status").replaceChildren(text ? el("span", {}, text) : "", ...extra);
}

function idle() {
  seek = null;
  clearTimeout(timer);
  $("seek-go").disabled = false;
  $("seek-cancel").classList.add("hidden");
}

function found(s, title) {
  idle();
  const token = s.link.split("#t=")[1];
  saveTable(s.table, { game: s.game, mode: "online", created: Date.now(), tokens: [token] });
  const note = $("seek-notice");
  note.replaceChildren(
    el("strong", {}, "Opponent found: go to your table. "),
    `${title}${s.rated ? " (rated)" : ""} against ${s.opponent}. `,
    el("a", { href: s.link, class: "button-link primary", id: "seek-table" }, "Go to your table"));
  note.classList.remove("hidden");
  status("");
  document.title = "Opponent found · boardlab";
}

function waiting(s) {
  const range = s.rated && s.range !== null ? `, accepting ratings within ${s.range} of your ${s.rating}` : "";
  status(`Looking for an opponent for ${s.title}${s.rated ? " (rated)" : ""}… ${Math.round(s.waited)} s${range}.`);
}

async function poll() {
  if (!seek) return;
  const mine = seek;
  try {
    const s = await api(`/api/seeks/${encodeURIComponent(mine.id)}`, { token: mine.token });
    if (seek !== mine) return;
    if (s.status === "matched") { found(s, s.title); return; }
    waiting(s);
  } catch (e) {
    if (seek !== mine) return;
    if (e.status === 410 || e.status === 404 || e.status === 403) { idle(); status(e.message); return; }
    status("The server cannot be reached; still trying…");
  }
  timer = setTimeout(poll, POLL_MS);
}

async function start(games) {
  const g = games.find((x) => x.id === $("seek-game").value);
  if (!g) return;
  const body = { game: g.id, rated: $("seek-rated").checked && !$("seek-rated-field").classList.contains("hidden") };
  const clock = clockOf($("seek-clock").value);
  if (clock) body.clock = clock;
  const name = $("seek-name").value.trim();
  if (name && $("seek-name-field").classList.contains("hidden") === false) body.name = name;
  $("seek-go").disabled = true;
  $("seek-notice").classList.add("hidden");
  try {
    const s = await api("/api/seeks", { method: "POST", body });
    seek = { id: s.id, token: s.token, game: g.id };
    $("seek-cancel").classList.remove("hidden");
    if (s.status === "matched") { found(s, g.title); return; }
    waiting(s);
    timer = setTimeout(poll, POLL_MS);
  } catch (e) {
    idle();
    status(e.message);
  }
}

async function cancel() {
  if (!seek) return;
  const mine = seek;
  try {
    await api(`/api/seeks/${encodeURIComponent(mine.id)}/cancel`, { method: "POST", token: mine.token });
    idle();
    status("Stopped looking.");
  } catch (e) {
    if (e.code === "matched") { poll(); return; }
    toast(e.message);
  }
}

// The page going away ends its seek at once (otherwise it expires when the polls stop).
window.addEventListener("pagehide", () => {
  if (!seek) return;
  fetch(`/api/seeks/${encodeURIComponent(seek.id)}/cancel`, {
    method: "POST", keepalive: true, headers: { Authorization: `Bearer ${seek.token}` },
  }).catch(() => {});
});

async function draw() {
  const box = $("seek-box");
  if (!box) return;
  let games;
  try { games = (await api("/api/games")).games.filter((g) => g.min_players <= 2 && g.max_players >= 2); } catch { return; }
  const me = await whoami();
  games.sort((a, b) => a.title.localeCompare(b.title));
  const body = el("div", { class: "seek-form" },
    el("div", { class: "field" }, el("label", { for: "seek-game" }, "Game"),
      el("select", { id: "seek-game" }, ...games.map((g) => el("option", { value: g.id }, g.title)))),
    el("div", { class: "field" }, el("label", { for: "seek-clock" }, "Clock"),
      el("select", { id: "seek-clock" }, ...CLOCKS.map((c) => el("option", { value: c.value }, c.text)))),
    el("label", { class: "field" + (me.signed_in ? "" : " hidden"), id: "seek-rated-field" },
      el("span", {}, el("input", { type: "checkbox", id: "seek-rated", checked: true }), " Rated (an opponent of a near rating)")),
    el("div", { class: "field" + (me.signed_in ? " hidden" : ""), id: "seek-name-field" },
      el("label", { for: "seek-name" }, "Your name"), el("input", { type: "text", id: "seek-name", maxlength: 32 })),
    el("div", { class: "actions" },
      el("button", { type: "button", class: "primary", id: "seek-go", onclick: () => start(games) }, "Find an opponent"),
      el("button", { type: "button", class: "hidden", id: "seek-cancel", onclick: cancel }, "Cancel")));
  $("seek-body").replaceChildren(
    el("p", { class: "small muted" }, me.signed_in
      ? "Play someone new with the game's usual rules: rated games meet a player of a near rating, and the range widens while you wait."
      : "Play someone new with the game's usual rules (casual; sign in for rated games)."),
    body,
    el("p", { class: "small", id: "seek-status", "aria-live": "polite" }),
    el("p", { class: "small muted", id: "seek-counts" }),
    el("div", { class: "notice hidden", id: "seek-notice", role: "status" }));
  box.classList.remove("hidden");
  counts();
  setInterval(counts, 10000);
}

// Who else is seeking now, by game.
async function counts() {
  let data;
  try { data = await api("/api/seeking"); } catch { return; }
  const byGame = {};
  for (const c of data.seeks) {
    const g = (byGame[c.game] ||= { title: c.title, n: 0, rated: 0 });
    g.n += c.seeking;
    if (c.rated) g.rated += c.seeking;
  }
  const parts = Object.values(byGame).map((g) => `${g.title} ${g.n}${g.rated ? ` (${g.rated} rated)` : ""}`);
  $("seek-counts").textContent = parts.length ? `Seeking now: ${parts.join(" · ")}` : "";
}

draw();
