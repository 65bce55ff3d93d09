// The lab page: start a balance run, a variant sweep or a search for the setting nearest a target, watch it, read
// its report (or the sweep's table of paired differences and its most balanced variant, or the search's rounds and
// its winner), list past runs, sweeps and searches, open sample games in the replay viewer.
// Generic: the options to vary and their values come from the game's declared options (/api/games), the metrics a
// sweep may aim at from the lab (/api/lab).

import { api, el, optionValue, toast } from "./api.js";

const $ = (id) => document.getElementById(id);
const root = $("lab-root");
let games = [];
let current = null; // the key of the run shown
let polling = 0;
let maxGames = 2000;
let metrics = []; // [{name, label, rate, default}]

const kind = () => $("lab-form").dataset.kind; // balance or sweep (a search is a sweep in mode "target")
const mode = () => $("lab-form").dataset.mode; // grid or target
const words = (name) => name.replaceAll("_", " ");

// A sweep's values of one option: a tick box per allowed value (all ticked), or text as on the command line.
function valuesInput(o) {
  if (o.allowed) {
    return el("div", { class: "lab-values", "data-values": o.name },
      ...o.allowed.map((v, i) => {
        const box = el("input", { type: "checkbox", id: `lab-val-${o.name}-${i}`, "data-value": JSON.stringify(v), onchange: sweepSize });
        box.checked = true;
        return el("label", {}, box, String(v));
      }));
  }
  // numbers as on the command line (5,7 or 5..9); text values, which may hold commas themselves, split at "|"
  const numeric = o.type === "int" || o.type === "float";
  return el("div", { class: "lab-values", "data-values": o.name, "data-split": numeric ? "" : "|" },
    el("input", { type: "text", id: `lab-vals-${o.name}`, "aria-label": `${words(o.name)}: values to compare`,
      placeholder: numeric ? "values: 5,7 or 5..9" : "values separated by |", value: o.default ?? "", oninput: sweepSize }));
}

function optionInput(o) {
  const id = `lab-opt-${o.name}`;
  let input;
  if (o.type === "bool") {
    input = el("input", { type: "checkbox", id, class: "fixed", "data-option": o.name, "data-type": "bool" });
    input.checked = !!o.default;
  } else if (o.allowed) {
    input = el("select", { id, class: "fixed", "data-option": o.name, "data-type": o.type },
      ...o.allowed.map((v) => el("option", { value: JSON.stringify(v) }, String(v))));
    input.value = JSON.stringify(o.default);
  } else if (o.type === "int" || o.type === "float") {
    input = el("input", { type: "number", id, class: "fixed", "data-option": o.name, "data-type": o.type, step: o.type === "int" ? 1 : "any", value: o.default });
  } else {
    input = el("input", { type: "text", id, class: "fixed", "data-option": o.name, "data-type": o.type, value: o.default ?? "" });
  }
  const field = el("div", { class: "field", "data-field": o.name });
  const vary = el("input", { type: "checkbox", id: `lab-vary-${o.name}`, "data-vary": o.name,
    onchange: () => { field.classList.toggle("varied", vary.checked); sweepSize(); } });
  field.append(el("label", { for: id }, words(o.name)),
    el("label", { class: "vary-toggle sweep-only" }, vary, `vary ${words(o.name)}`),
    input, valuesInput(o), el("span", { class: "desc" }, o.description));
  return field;
}

const varied = () => [...$("lab-options").querySelectorAll("[data-vary]")].filter((b) => b.checked).map((b) => b.dataset.vary);

// The values to vary, as the API takes them: a list of allowed values, or the text typed ("5,7", "5..9").
function readVary() {
  const out = {};
  for (const name of varied()) {
    const box = $("lab-options").querySelector(`[data-values="${name}"]`);
    const text = box.querySelector("input[type=text]");
    if (!text) out[name] = [...box.querySelectorAll("input:checked")].map((b) => JSON.parse(b.dataset.value));
    else if (box.dataset.split) out[name] = text.value.split(box.dataset.split).map((v) => v.trim()).filter(Boolean);
    else out[name] = text.value;
  }
  return out;
}

// How many values a text names (an estimate for the size line; the server parses it for real).
function countText(text) {
  const m = /^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*(?::\s*(\d+))?\s*$/.exec(text);
  if (m) return Math.max(0, Math.floor((Number(m[2]) - Number(m[1])) / Number(m[3] || 1)) + 1);
  return text.split(",").filter((v) => v.trim()).length;
}

function sweepSize() {
  const vary = readVary();
  const names = Object.keys(vary);
  const line = $("lab-sweep-size");
  if (!names.length) {
    line.textContent = "Tick at least one option to vary.";
    return;
  }
  const variants = names.reduce((n, k) => n * (typeof vary[k] === "string" ? countText(vary[k]) : vary[k].length), 1);
  const each = parseInt($("lab-games").value, 10) || 0;
  if (mode() === "target") {
    line.textContent = `${variants} setting${variants === 1 ? "" : "s"}, up to ${each} games each; the settings dropped early play fewer`
      + (variants < 2 ? " (a search needs at least 2 settings)" : "");
    return;
  }
  const total = variants * each;
  line.textContent = `${variants} variant${variants === 1 ? "" : "s"} × ${each} games = ${total} games`
    + (total > maxGames ? ` (more than the lab's limit of ${maxGames})` : "");
}

function setKind(k) {
  $("lab-form").dataset.kind = k === "target" ? "sweep" : k;
  $("lab-form").dataset.mode = k === "target" ? "target" : "grid";
  $("lab-games").min = k === "balance" ? "1" : "2";
  sweepSize();
}

// The metric chooser: its unit (a rate as a percentage, a length in moves) and its default target, if it has one.
const chosenMetric = () => metrics.find((m) => m.name === $("lab-metric").value);

function pickMetric() {
  const m = chosenMetric();
  if (!m) return;
  $("lab-target-unit").textContent = m.rate ? "%" : "moves";
  $("lab-target").max = m.rate ? "100" : "";
  $("lab-target").value = m.default === null ? "" : String(m.rate ? m.default * 100 : m.default);
}

function fillMetrics(list) {
  if (metrics.length || !list) return;
  metrics = list;
  $("lab-metric").replaceChildren(...list.map((m) => el("option", { value: m.name }, m.label)));
  pickMetric();
}

// What the sweep aims at, as the API takes it: a rate as a share (50% is 0.5), a length in moves; none typed: none.
function readGoal() {
  const m = chosenMetric();
  const text = $("lab-target").value.trim();
  const out = { metric: m ? m.name : "first_mover" };
  if (text !== "") out.target = Number(text) / (m && m.rate ? 100 : 1);
  return out;
}

function readOptions() {
  const out = {};
  const skip = kind() === "sweep" ? new Set(varied()) : new Set();
  for (const input of $("lab-options").querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    if (!skip.has(name)) out[name] = optionValue(input);
  }
  return out;
}

function pickGame() {
  const g = games.find((x) => x.id === $("lab-game").value);
  if (!g) return;
  const np = $("lab-players");
  np.replaceChildren();
  for (let k = g.min_players; k <= g.max_players; k++) np.append(el("option", { value: k }, String(k)));
  np.value = String(g.default_players);
  $("lab-players-field").classList.toggle("hidden", g.min_players === g.max_players);
  $("lab-options").replaceChildren(...g.options.map(optionInput));
  $("lab-no-options").classList.toggle("hidden", g.options.length > 0);
  sweepSize();
}

function sweepText(r) {
  const s = r.sweep;
  const p = r.params;
  const what = s.mode === "target"
    ? [s.goal, `${s.variants.length} settings of ${s.varied.map(words).join(", ")}`, `up to ${s.games_each} games each`]
    : [s.variants.join("; "), `${s.games_each} games each`, s.goal && `most balanced: ${s.goal}`];
  return [...what, `${p.num_players} players`, [...new Set(p.agents || [])].join(", "), `seed ${p.seed}`].filter(Boolean).join(" · ");
}

const KINDS = { balance: "report", sweep: "sweep", search: "search" };

function settingsText(p) {
  const opts = Object.entries(p.options || {}).map(([k, v]) => `${k.replaceAll("_", " ")} ${v}`).join(", ");
  const agents = [...new Set(p.agents || [])].join(", ");
  return [opts, `${p.players} players`, agents, `seed ${p.seed}`].filter(Boolean).join(" · ");
}

function statusText(r) {
  if (r.status === "finished") return "finished";
  if (r.status === "failed") return "failed";
  if (r.status === "stopped") return "stopped (start it again to finish)";
  if (r.status === "cancelled") return "cancelled (start it again to carry on)";
  if (r.waiting) return "waiting for a free worker";
  return `${r.done} of ${r.total}`;
}

// Cancel a run this address started (the server refuses anyone else's); the list and the shown run follow.
async function cancelRun(key) {
  try {
    await api(`/api/lab/runs/${encodeURIComponent(key)}/cancel`, { method: "POST" });
  } catch (e) {
    toast(e.message);
  }
  listRuns();
  if (current === key) show(key);
}

function cancelButton(r) {
  if (!r.cancellable) return "";
  const b = el("button", { type: "button", class: "small lab-cancel", "data-key": r.key, title: "Stop this run" }, "Cancel");
  b.addEventListener("click", (ev) => {
    ev.stopPropagation(); // not a click on the row, which opens the run
    cancelRun(r.key);
  });
  return b;
}

async function listRuns() {
  let data;
  try {
    data = await api("/api/lab");
  } catch (e) {
    toast(e.message);
    return;
  }
  maxGames = data.max_games;
  fillMetrics(data.metrics);
  $("lab-games").max = String(data.max_games);
  sweepSize();
  const rows = data.runs.map((r) => {
    const tr = el("tr", { "data-key": r.key, "data-kind": r.kind, class: r.key === current ? "current" : "" },
      el("td", {}, r.title || r.params.game),
      el("td", {}, KINDS[r.kind] || r.kind),
      el("td", {}, r.sweep ? sweepText(r) : settingsText(r.params), r.verdict ? el("div", { class: "verdict" }, r.verdict) : ""),
      el("td", {}, String(r.total)),
      el("td", { class: "status" }, statusText(r), " ", cancelButton(r)));
    tr.addEventListener("click", () => show(r.key));
    return tr;
  });
  $("lab-runs").replaceChildren(...rows);
  $("lab-no-runs").classList.toggle("hidden", rows.length > 0);
}

function renderReport(run) {
  const rep = run.report;
  $("lab-verdict").textContent = rep.verdict;
  $("lab-sentences").replaceChildren(...(rep.sentences || []).map((s) => el("li", {}, s)));
  $("lab-plots").replaceChildren(...(run.plots || []).map((p) => el("figure", {},
    el("img", { src: `data:image/png;base64,${p.png}`, alt: p.caption }), el("figcaption", { class: "small muted" }, p.caption))));
  $("lab-tables").replaceChildren(...(run.tables || []).map(([title, rows]) => el("div", {},
    el("h3", {}, title),
    el("table", {}, el("tbody", {}, ...rows.map(([k, v]) => el("tr", {}, el("th", {}, k), el("td", {}, v))))))));
  $("lab-samples").replaceChildren(...sampleLinks(run));
  $("lab-report").classList.remove("hidden");
}

function sampleLinks(run) {
  return (run.samples || []).map((s) => el("li", {},
    el("a", { href: `/replay?lab=${encodeURIComponent(run.key)}&sample=${s.index}`, "data-sample": s.index },
      `${s.label} (${s.length} moves)`)));
}

// The sweep's table as `boardlab sweep` prints it: a grid's variants, the most balanced one's row marked; a search's
// rounds, the last (whose first setting won) marked.
function renderSweep(run) {
  const s = run.sweep;
  const t = s.table;
  const best = s.mode === "target" ? t.rows.length - 1 : s.best;
  $("lab-sweep-verdict").textContent = run.verdict;
  const table = $("lab-sweep-table");
  table.dataset.mode = s.mode;
  table.tHead.replaceChildren(el("tr", {}, ...t.columns.map((c) => el("th", { scope: "col" }, c))));
  table.tBodies[0].replaceChildren(...t.rows.map((row, i) => el("tr", { class: i === best ? "best" : "" },
    ...row.map((cell) => el("td", {}, cell)))));
  $("lab-sweep-samples-note").textContent = s.mode === "target"
    ? "Game 1 of the setting found, the very game the search played."
    : "Game 1 of every variant, played from the same seed in each.";
  $("lab-sweep-note").textContent = t.note;
  $("lab-sweep-samples").replaceChildren(...sampleLinks(run));
  $("lab-sweep-report").classList.remove("hidden");
}

async function show(key) {
  current = key;
  history.replaceState(null, "", `#run=${encodeURIComponent(key)}`);
  const ticket = ++polling;
  $("lab-report").classList.add("hidden");
  $("lab-sweep-report").classList.add("hidden");
  $("lab-run-error").classList.add("hidden");
  for (const tr of $("lab-runs").querySelectorAll("tr")) tr.classList.toggle("current", tr.dataset.key === key);
  for (;;) {
    let run;
    try {
      run = await api(`/api/lab/runs/${encodeURIComponent(key)}`);
    } catch (e) {
      if (ticket !== polling) return;
      if (e.status === 404) {
        $("lab-run").classList.add("hidden");
        toast(e.message);
        return;
      }
      await new Promise((r) => setTimeout(r, 1000));
      continue;
    }
    if (ticket !== polling) return; // another run was opened meanwhile
    const sweep = !!run.sweep;
    const s = run.sweep;
    const searching = sweep && s.mode === "target";
    $("lab-run-title").textContent = !sweep ? `${run.title} · ${run.total} games`
      : searching ? `${run.title} · search over ${s.varied.map(words).join(", ")} · ${s.variants.length} settings, up to ${s.games_each} games each`
        : `${run.title} · sweep of ${s.varied.map(words).join(", ")} · ${s.variants.length} variants × ${s.games_each} games`;
    $("lab-run-settings").textContent = sweep ? sweepText(run) : settingsText(run.params);
    $("lab-bar").max = run.total;
    $("lab-bar").value = run.done;
    $("lab-count").textContent = `${run.done} of ${run.total} games`;
    $("lab-round").classList.toggle("hidden", !searching);
    if (searching) { // the search's progress by round: how many settings are left and how many games each plays
      const r = s.plan[s.round];
      $("lab-round").textContent = `Round ${s.round + 1} of ${s.plan.length}: ${r.candidates} settings, ${r.games} games each`;
      root.dataset.runRound = String(s.round + 1);
    }
    $("lab-run").classList.remove("hidden"); // shown once it says something: its settings and progress
    root.dataset.runKind = run.kind;
    root.dataset.runStatus = run.status;
    root.dataset.runDone = String(run.done);
    $("lab-run-cancel").classList.toggle("hidden", !run.cancellable);
    if (run.status === "finished") {
      if (sweep) renderSweep(run);
      else renderReport(run);
      listRuns();
      return;
    }
    if (run.status === "failed" || run.status === "stopped" || run.status === "cancelled") {
      $("lab-run-error").textContent = run.status === "failed" ? `The run failed: ${run.error}`
        : run.status === "cancelled" ? "The run was cancelled; start it again to carry on."
          : "The server stopped during this run; start it again to finish it.";
      $("lab-run-error").classList.remove("hidden");
      listRuns();
      return;
    }
    await new Promise((r) => setTimeout(r, 400));
  }
}

async function start(ev) {
  ev.preventDefault();
  $("lab-error").textContent = "";
  const agents = $("lab-agents").value.split(",").map((s) => s.trim()).filter(Boolean);
  const body = {
    game: $("lab-game").value,
    options: readOptions(),
    agents: agents.length ? agents : ["random"],
    games: parseInt($("lab-games").value, 10),
    seed: parseInt($("lab-seed").value, 10) || 0,
    players: parseInt($("lab-players").value, 10),
  };
  const sweep = kind() === "sweep";
  if (sweep) {
    body.vary = readVary();
    if (!Object.keys(body.vary).length) {
      $("lab-error").textContent = "Tick at least one option to vary.";
      return;
    }
    Object.assign(body, readGoal(), { mode: mode() });
  }
  $("lab-start").disabled = true;
  try {
    const run = await api(sweep ? "/api/lab/sweeps" : "/api/lab/runs", { method: "POST", body });
    await listRuns();
    show(run.key);
  } catch (e) {
    $("lab-error").textContent = e.message;
  } finally {
    $("lab-start").disabled = false;
  }
}

async function init() {
  try {
    const [g, a] = await Promise.all([api("/api/games"), api("/api/agents")]);
    games = g.games;
    $("lab-agent-list").replaceChildren(...a.all.map((s) => el("option", { value: s })));
  } catch (e) {
    toast(e.message);
    return;
  }
  $("lab-game").replaceChildren(...games.map((g) => el("option", { value: g.id }, g.title)));
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && games.some((g) => g.id === wanted)) $("lab-game").value = wanted;
  pickGame();
  $("lab-game").addEventListener("change", pickGame);
  $("lab-form").addEventListener("submit", start);
  $("lab-run-cancel").addEventListener("click", () => { if (current) cancelRun(current); });
  $("lab-games").addEventListener("input", sweepSize);
  $("lab-metric").addEventListener("change", pickMetric);
  for (const r of document.querySelectorAll("input[name=lab-kind]")) r.addEventListener("change", () => setKind(r.value));
  const wantedKind = new URLSearchParams(location.search).get("kind");
  if (wantedKind === "sweep" || wantedKind === "target") $(`lab-kind-${wantedKind}`).checked = true;
  setKind(document.querySelector("input[name=lab-kind]:checked").value);
  await listRuns();
  root.dataset.ready = "1";
  const m = /run=([^&]+)/.exec(location.hash);
  if (m) show(decodeURIComponent(m[1]));
}

init();
