// The lobby: every registered game, its rules, and a form to create a table.

import { whoami } from "./account.js";
import { api, el, forgetTable, optionValue, saveTable, savedTables, showRules, toast } from "./api.js";
import { drawThumbnail } from "./pictures.js";

const $ = (id) => document.getElementById(id);
let agents = { levels: [], agents: ["random"], all: ["random"], default: "random", only_random: true };
let current = null; // the game being set up

// A level's entry: its name, how long it may think, and its measured Elo where the server gives one (it gives a
// figure only where the measurement separates the level from the levels beside it, so the figures never contradict
// the names).
function aiChoices(g) {
  const elo = (g && g.level_elo) || {};
  const think = agents.think_seconds || {};
  return agents.all.map((name) => {
    const rated = elo[name] !== undefined ? ` (Elo ${Math.round(elo[name])})` : "";
    const time = think[name] !== undefined ? ` · up to ${Number(think[name].toPrecision(2))} s a move` : "";
    return { value: `ai:${name}`, text: agents.levels.includes(name) ? `AI · ${name}${time}${rated}` : `AI · ${name} agent${rated}` };
  });
}

// -- the games: a picture of each, search and filters ------------------------------------------------------------

// A game's length as the filters sort it, from its measured typical number of moves (docs/balance)
export function lengthKind(moves) {
  if (!moves) return "";
  return moves <= 25 ? "quick" : moves <= 80 ? "medium" : "long";
}

function hasChance(g) {
  return ((g.game_type || {}).chance || "none") !== "none";
}

// Each card's picture, fetched and drawn when it scrolls into view (a spectator's view some way into a game)
const thumbs = typeof IntersectionObserver === "function"
  ? new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      thumbs.unobserve(e.target);
      drawThumb(e.target);
    }
  }, { rootMargin: "300px" })
  : null;

async function drawThumb(host) {
  try {
    const data = await api(`/api/games/${encodeURIComponent(host.dataset.thumb)}/picture`);
    drawThumbnail(host, data.scene);
  } catch (e) {
    host.classList.add("failed");
  }
}

function thumbBox(g) {
  const host = el("div", { class: "thumb", "data-thumb": g.id, role: "img", "aria-label": `${g.title}: a game in progress` });
  if (thumbs) thumbs.observe(host);
  else drawThumb(host);
  return host;
}

function filterValues() {
  return {
    text: $("game-search").value.trim().toLowerCase(),
    players: Number($("filter-players").value) || 0,
    length: $("filter-length").value,
    luck: $("filter-luck").value,
    hidden: $("filter-hidden").value,
  };
}

function matches(g, f) {
  if (f.text) {
    const type = g.game_type || { tags: [] };
    const words = [g.title, g.summary || "", ...(type.tags || []), ...(g.mechanics || [])].join(" ").toLowerCase();
    if (!f.text.split(/\s+/).every((w) => words.includes(w))) return false;
  }
  if (f.players && !(g.min_players <= f.players && f.players <= g.max_players)) return false;
  if (f.length && lengthKind(g.typical_moves) !== f.length) return false;
  if (f.luck && (f.luck === "chance") !== hasChance(g)) return false;
  if (f.hidden && (f.hidden === "hidden") !== !g.perfect_information) return false;
  return true;
}

let allGames = [];

function applyFilters() {
  const f = filterValues();
  let shown = 0;
  for (const card of document.querySelectorAll("#games .game-card")) {
    const g = allGames.find((x) => x.id === card.dataset.game);
    const ok = !g || matches(g, f);
    card.classList.toggle("hidden", !ok);
    if (ok) shown++;
  }
  $("games-count").textContent = shown === allGames.length ? `${shown} games` : `${shown} of ${allGames.length} games`;
  $("games-none").classList.toggle("hidden", shown > 0);
}

function initFilters() {
  $("game-filters").addEventListener("submit", (ev) => ev.preventDefault());
  for (const id of ["game-search", "filter-players", "filter-length", "filter-luck", "filter-hidden"]) {
    $(id).addEventListener("input", applyFilters);
  }
  $("filters-clear").addEventListener("click", () => {
    $("game-filters").reset();
    applyFilters();
  });
}

function gameCard(g) {
  const players = g.min_players === g.max_players ? `${g.min_players}` : `${g.min_players}–${g.max_players}`;
  // The declared game type first (information, chance, co-operation, and what a variant changes), then the mechanics.
  const type = g.game_type || { tags: [], variants: [] };
  const words = [...type.tags, ...type.variants.map((v) => v.text), ...g.mechanics];
  const chips = el("div", { class: "chips" }, ...words.map((m) => el("span", { class: "chip" }, m)));
  const length = g.typical_moves ? ` · about ${g.typical_moves} moves` : "";
  const card = el("article", { class: "game-card", "data-game": g.id, "data-length": lengthKind(g.typical_moves), "data-chance": hasChance(g) ? "1" : "0", "data-hidden": g.perfect_information ? "0" : "1" },
    thumbBox(g),
    el("h3", {}, g.title),
    el("div", { class: "facts" }, `${players} player${g.max_players > 1 ? "s" : ""}${g.playing_time ? ` · ${g.playing_time}` : ""}${length}`),
    g.summary ? el("p", { class: "small", style: { margin: "0" } }, g.summary) : null,
    g.balance_verdict ? el("p", { class: "small muted balance-verdict", style: { margin: "0" } }, `Balance: ${g.balance_verdict}`) : null,
    chips);
  if (g.inventions && g.inventions.length) {
    card.append(el("details", { class: "inventions" },
      el("summary", {}, el("span", { class: "chip invention" }, "includes our inventions"), ` (${g.inventions.length})`),
      el("ul", {}, ...g.inventions.map((x) => el("li", {}, x)))));
  }
  card.append(el("div", { class: "actions" },
    el("button", { type: "button", class: "primary", "data-new": g.id, onclick: () => openCreate(g) }, "New table"),
    g.has_rules ? el("button", { type: "button", onclick: () => showRules(g.id, g.title) }, "Rules") : el("span", { class: "muted small" }, "no rules document")));
  return card;
}

let myTitles = {};
let myTurns = {}; // table id -> { your_turn, status, clock, deadline } from the server (POST /api/my-tables)
let myTimer = null;

function drawMyTables(titles = myTitles) {
  myTitles = titles;
  const saved = savedTables();
  const ids = Object.keys(saved).sort((a, b) => (saved[b].created || 0) - (saved[a].created || 0)).slice(0, 12);
  $("my-tables-box").classList.toggle("hidden", !ids.length);
  $("my-tables").replaceChildren(...ids.map((id) => {
    const t = saved[id];
    const when = t.created ? new Date(t.created).toLocaleString() : "";
    const turn = myTurns[id] || {};
    const state = turn.your_turn ? el("span", { class: "your-move", "data-your-move": id }, "Your move")
      : turn.status === "finished" ? el("span", { class: "muted small" }, "finished")
        : turn.status === "aborted" ? el("span", { class: "muted small" }, "aborted") : null;
    const left = turn.your_turn && turn.deadline ? el("span", { class: "small muted" }, `${timeLeft(turn.deadline)} left`) : null;
    return el("div", { class: "row", "data-table": id },
      el("a", { href: `/table/${encodeURIComponent(id)}` }, `${titles[t.game] || t.game || "table"}`),
      state, left,
      el("span", { class: "muted small" }, `${t.mode || ""} ${turn.clock && turn.clock !== "no clock" ? `· ${turn.clock} ` : ""}${when}`),
      el("button", { type: "button", class: "small", onclick: () => { forgetTable(id); drawMyTables(titles); } }, "Forget"));
  }));
  const count = ids.filter((id) => (myTurns[id] || {}).your_turn).length;
  const badge = $("my-turn-count");
  badge.textContent = count ? `${count} your move` : "";
  badge.classList.toggle("hidden", !count);
  document.title = count ? `(${count}) boardlab` : "boardlab";
}

function timeLeft(deadline) {
  const s = Math.max(0, deadline - Date.now() / 1000);
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h`;
  if (s >= 60) return `${Math.floor(s / 60)} min`;
  return `${Math.round(s)} s`;
}

function tokensOf(t) {
  if (Array.isArray(t.tokens) && t.tokens.length) return t.tokens;
  const host = (t.links && t.links.host) || "";
  return decodeURIComponent(host.split("#t=")[1] || "").split(",").filter(Boolean);
}

// Where it is your move, across every table this browser holds links for: asked again every few seconds.
async function refreshMyTurns() {
  const saved = savedTables();
  const ids = Object.keys(saved).sort((a, b) => (saved[b].created || 0) - (saved[a].created || 0)).slice(0, 12);
  const tables = ids.flatMap((id) => tokensOf(saved[id]).map((token) => ({ id, token }))).slice(0, 100);
  if (!tables.length) return;
  let data;
  try {
    data = await api("/api/my-tables", { method: "POST", body: { tables } });
  } catch {
    return; // asked again at the next refresh
  }
  const turns = {};
  for (const t of data.tables) {
    const was = turns[t.id];
    if (!was || t.your_turn || (was.status === "gone" && t.status !== "gone")) turns[t.id] = t;
  }
  myTurns = turns;
  drawMyTables();
  $("my-tables-box").dataset.ready = "1";
}

function pollMyTurns() {
  clearInterval(myTimer);
  refreshMyTurns();
  myTimer = setInterval(() => { if (!document.hidden) refreshMyTurns(); }, 10000);
}

// Alone, there is no one to play against: a one-player table is played on this device.
function syncModes() {
  const alone = Number($("num-players").value) === 1;
  const ai = document.querySelector("input[name=mode][value=ai]");
  ai.disabled = alone;
  if (alone && ai.checked) document.querySelector("input[name=mode][value=hotseat]").checked = true;
}

function mode() {
  return document.querySelector("input[name=mode]:checked").value;
}

function drawSeats() {
  const n = Number($("num-players").value);
  const m = mode();
  $("open-field").classList.toggle("hidden", m !== "online");
  whoami().then((a) => $("rated-field").classList.toggle("hidden", !a.signed_in || m === "hotseat"));
  const rows = [];
  for (let s = 0; s < n; s++) {
    // each seat by the name the table will call it ("Red"); a name typed here replaces it everywhere at the table
    const seat = (current && current.seat_names && current.seat_names[s]) || `Player ${s + 1}`;
    const select = el("select", { id: `seat-${s}`, "aria-label": `${seat}: who plays` },
      el("option", { value: "human" }, "Human"), ...aiChoices(current).map((c) => el("option", { value: c.value }, c.text)));
    select.value = m === "ai" && s > 0 ? `ai:${agents.default}` : "human";
    const name = el("input", { type: "text", id: `seat-name-${s}`, placeholder: "Name (optional)", maxlength: 32, "aria-label": `${seat}'s name` });
    rows.push(el("div", { class: "seat-row", "data-seat-name": seat }, el("label", { for: `seat-${s}` }, seat), select, name));
  }
  if (agents.only_random) {
    rows.push(el("p", { class: "small muted" }, "Only the random AI exists so far; stronger levels appear here once installed."));
  } else if (current && current.level_note) {
    // where the measured games do not tell the levels apart, the server says so in players' words
    rows.push(el("p", { class: "small muted", id: "level-note" }, current.level_note));
  }
  $("seats").replaceChildren(...rows);
}

// An option's name in players' words: "when_stuck" reads "When stuck", "phase1_no_new_contact" "Phase 1 no new contact".
function optionTitle(o) {
  const words = o.name.replaceAll("_", " ").replace(/([a-z])(\d)/g, "$1 $2");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function optionInput(o) {
  const id = `opt-${o.name}`;
  let input;
  if (o.type === "bool") {
    input = el("input", { type: "checkbox", id, "data-option": o.name, "data-type": "bool" });
    input.checked = !!o.default;
  } else if (o.allowed) {
    // the value stays the API's code word; the player reads its label, the standard value first
    const labels = o.labels || o.allowed.map(String);
    const choices = o.allowed.map((v, k) => ({ v, text: labels[k] }));
    if (o.type === "str") choices.sort((a, b) => (b.v === o.default) - (a.v === o.default));
    input = el("select", { id, "data-option": o.name, "data-type": o.type },
      ...choices.map((c) => el("option", { value: JSON.stringify(c.v) }, c.v === o.default ? `${c.text} (standard)` : c.text)));
    input.value = JSON.stringify(o.default);
  } else if (o.type === "int" || o.type === "float") {
    input = el("input", { type: "number", id, "data-option": o.name, "data-type": o.type, step: o.type === "int" ? 1 : "any", min: o.minimum ?? undefined, max: o.maximum ?? undefined, value: o.default });
  } else {
    input = el("input", { type: "text", id, "data-option": o.name, "data-type": o.type, value: o.default ?? "" });
  }
  return el("div", { class: "field" },
    el("label", { for: id }, optionTitle(o)),
    input,
    el("span", { class: "desc" }, o.description));
}

// An option with one allowed value leaves nothing to choose: it is sent as it is, not shown.
const choosable = (o) => !(o.allowed && o.allowed.length === 1);

function summariseMore() {
  const changed = [...$("options").querySelectorAll("[data-option]")].filter((i) => i.dataset.changed === "1").length;
  const clock = $("clock-kind").value !== "none";
  const parts = [changed ? `${changed} rule${changed > 1 ? "s" : ""} changed` : "standard rules", clock ? "turn clock on" : "no clock"];
  $("more-summary").textContent = `(${parts.join(", ")})`;
}

function openCreate(g) {
  current = g;
  $("create-title").textContent = `New table: ${g.title}`;
  $("create-error").textContent = "";
  const np = $("num-players");
  np.replaceChildren();
  for (let k = g.min_players; k <= g.max_players; k++) np.append(el("option", { value: k }, String(k)));
  np.value = String(g.default_players);
  $("players-field").classList.toggle("hidden", g.min_players === g.max_players);
  document.querySelector("input[name=mode][value=ai]").checked = true;
  syncModes();
  drawSeats();
  const shown = g.options.filter(choosable);
  $("options").replaceChildren(...shown.map(optionInput));
  $("open-table").checked = false;
  $("clock-kind").value = "none";
  syncClock();
  $("options-box").classList.toggle("hidden", !shown.length);
  $("more-options").open = false;
  summariseMore();
  $("create").showModal();
}

function readOptions() {
  const out = {};
  for (const o of current.options.filter((x) => !choosable(x))) out[o.name] = o.default;
  for (const input of $("options").querySelectorAll("[data-option]")) out[input.dataset.option] = optionValue(input);
  return out;
}

async function create(ev) {
  ev.preventDefault();
  const g = current;
  const n = Number($("num-players").value);
  const seats = [];
  for (let s = 0; s < n; s++) {
    const v = $(`seat-${s}`).value;
    const name = $(`seat-name-${s}`).value.trim() || null;
    seats.push(v === "human" ? { kind: "human", name } : { kind: "ai", agent: v.slice(3), name });
  }
  const m = mode();
  const body = { game: g.id, options: readOptions(), num_players: n, mode: m, seats };
  if (m === "online" && $("open-table").checked) body.open = true;
  const me = await whoami();
  if (me.signed_in && m !== "hotseat" && $("rated-table").checked) body.rated = true;
  const host = seats.find((s) => s.kind === "human");
  if (me.signed_in && m !== "hotseat" && host && !host.name) host.name = me.name; // your seat shows your name
  const clock = readClock();
  if (clock) body.clock = clock;
  // Every seat an AI: the player asked for an AI match to watch, which the server wants said explicitly.
  if (seats.every((s) => s.kind === "ai")) body.watch = true;
  $("create-go").disabled = true;
  $("create-error").textContent = "";
  try {
    const r = await api("/api/tables", { method: "POST", body });
    saveTable(r.id, { game: g.id, mode: m, created: Date.now(), links: r.links, host_seat: r.host_seat });
    location.href = r.links.host;
  } catch (e) {
    $("create-error").textContent = e.message;
  } finally {
    $("create-go").disabled = false;
  }
}

// -- the turn clock option ---------------------------------------------------------------------------------------
function readClock() {
  const kind = $("clock-kind").value;
  if (kind === "none") return null;
  const amount = Number($("clock-amount").value);
  if (kind === "days") return { kind, days: Math.min(14, Math.max(1, Math.round(amount))) };
  return { kind, seconds: kind === "game" ? amount * 60 : amount };
}

function syncClock() {
  const kind = $("clock-kind").value;
  $("clock-amount-field").classList.toggle("hidden", kind === "none");
  $("clock-amount-label").textContent = { game: "Minutes for each player", days: "Days for each move (1 to 14)" }[kind] || "Seconds for each move";
  if (kind === "game" && Number($("clock-amount").value) > 120) $("clock-amount").value = "10";
  if (kind === "days" && Number($("clock-amount").value) > 14) $("clock-amount").value = "3";
}

// -- open tables: free seats anyone can take -----------------------------------------------------------------
let openTimer = null;

async function drawOpenTables() {
  let data;
  try {
    data = await api("/api/open-tables");
  } catch {
    return; // the list comes back with the next refresh
  }
  const rows = data.tables.map((t) => {
    const seats = t.seats.map((s) => (s.free ? "free seat" : s.name)).join(" · ");
    // a seeded table says so before anyone joins: whoever knows its seed foresees every dice roll
    const seeded = t.seeded ? "seeded: its creator can foresee the dice and draws" : null;
    const rated = t.rated ? "rated: sign in to take a seat" : null;
    const facts = [`${t.free} free of ${t.num_players}`, `${t.spectators} watching`, t.clock, seeded, rated].filter(Boolean).join(" · ");
    const name = el("input", { type: "text", maxlength: 32, placeholder: "Your name", "aria-label": `Your name at ${t.title}` });
    return el("div", { class: "row", "data-table": t.id },
      el("strong", {}, t.title),
      el("span", { class: "seats-text" }, seats, el("br"), el("span", { class: "small muted" }, facts)),
      t.free ? name : null,
      t.free ? el("button", { type: "button", class: "primary", "data-join": t.id, onclick: () => join(t, name.value) }, "Join") : null,
      el("a", { class: "button-link", href: t.watch, "data-watch": t.id }, "Watch"));
  });
  $("open-tables").replaceChildren(...rows);
  $("open-tables-box").classList.toggle("hidden", !rows.length);
}

async function join(t, name) {
  try {
    const r = await api(`/api/tables/${encodeURIComponent(t.id)}/join`, { method: "POST", body: { name: name.trim() || null } });
    saveTable(r.table, { game: t.game, mode: "online", created: Date.now(), tokens: [r.token] });
    location.href = r.link;
  } catch (e) {
    toast(e.message);
    drawOpenTables();
  }
}

function pollOpenTables() {
  clearInterval(openTimer);
  drawOpenTables();
  openTimer = setInterval(() => { if (!document.hidden) drawOpenTables(); }, 5000);
}

async function init() {
  $("create-form").addEventListener("submit", create);
  $("create-close").addEventListener("click", () => $("create").close());
  $("num-players").addEventListener("change", () => { syncModes(); drawSeats(); });
  for (const input of document.querySelectorAll("input[name=mode]")) input.addEventListener("change", drawSeats);
  $("clock-kind").addEventListener("change", () => { syncClock(); summariseMore(); });
  $("options").addEventListener("change", (ev) => {
    const input = ev.target.closest("[data-option]");
    const o = input && current.options.find((x) => x.name === input.dataset.option);
    if (!o) return;
    const value = o.type === "bool" ? input.checked : input.tagName === "SELECT" ? JSON.parse(input.value) : input.value;
    input.dataset.changed = String(value) === String(o.default) ? "0" : "1";
    summariseMore();
  });
  pollOpenTables();
  try {
    const data = await api("/api/games");
    agents = data.agents;
    const notice = $("ai-notice");
    if (agents.only_random) {
      notice.textContent = "Only the random AI is available so far: it plays any legal move. Stronger AI levels appear here once they are installed.";
      notice.classList.remove("hidden");
    }
    allGames = data.games;
    $("games").replaceChildren(...data.games.map(gameCard));
    initFilters();
    applyFilters();
    const titles = Object.fromEntries(data.games.map((g) => [g.id, g.title]));
    drawMyTables(titles);
    pollMyTurns();
    $("lobby").dataset.ready = "1";
    // "New game" at the end of a table: /#new=<game> opens that game's new-table form
    const m = /^#new=([^&]+)$/.exec(location.hash);
    const wanted = m && data.games.find((g) => g.id === decodeURIComponent(m[1]));
    if (wanted) {
      history.replaceState(null, "", location.pathname);
      openCreate(wanted);
    }
  } catch (e) {
    $("games").textContent = `The games could not be loaded: ${e.message}`;
  }
}

init();
