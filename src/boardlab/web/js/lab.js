// The lab page: start a balance run or a variant sweep, watch it, read its report (or the sweep's table of paired
// differences and its most balanced variant), list past runs and sweeps, open sample games in the replay viewer.
// Generic: the options to vary and their values come from the game's declared options (/api/games).

import { api, el, toast } from "./api.js";

const $ = (id) => document.getElementById(id);
const root = $("lab-root");
let games = [];
let current = null; // the key of the run shown
let polling = 0;
let maxGames = 2000;

const kind = () => $("lab-form").dataset.kind;
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
  const total = variants * each;
  line.textContent = `${variants} variant${variants === 1 ? "" : "s"} × ${each} games = ${total} games`
    + (total > maxGames ? ` (more than the lab's limit of ${maxGames})` : "");
}

function setKind(k) {
  $("lab-form").dataset.kind = k;
  $("lab-games").min = k === "sweep" ? "2" : "1";
  sweepSize();
}

function readOptions() {
  const out = {};
  const skip = kind() === "sweep" ? new Set(varied()) : new Set();
  for (const input of $("lab-options").querySelectorAll("[data-option]")) {
    const { option: name, type } = input.dataset;
    if (skip.has(name)) continue;
    if (type === "bool") out[name] = input.checked;
    else if (input.tagName === "SELECT") out[name] = JSON.parse(input.value);
    else if (type === "int") out[name] = parseInt(input.value, 10);
    else if (type === "float") out[name] = parseFloat(input.value);
    else out[name] = input.value;
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
  return [s.variants.join("; "), `${s.games_each} games each`,
    `${p.num_players} players`, [...new Set(p.agents || [])].join(", "), `seed ${p.seed}`].filter(Boolean).join(" · ");
}

function settingsText(p) {
  const opts = Object.entries(p.options || {}).map(([k, v]) => `${k.replaceAll("_", " ")} ${v}`).join(", ");
  const agents = [...new Set(p.agents || [])].join(", ");
  return [opts, `${p.players} players`, agents, `seed ${p.seed}`].filter(Boolean).join(" · ");
}

function statusText(r) {
  if (r.status === "finished") return "finished";
  if (r.status === "failed") return "failed";
  if (r.status === "stopped") return "stopped (start it again to finish)";
  return `${r.done} of ${r.total}`;
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
  $("lab-games").max = String(data.max_games);
  sweepSize();
  const rows = data.runs.map((r) => {
    const tr = el("tr", { "data-key": r.key, "data-kind": r.kind, class: r.key === current ? "current" : "" },
      el("td", {}, r.title || r.params.game),
      el("td", {}, r.kind === "sweep" ? "sweep" : "report"),
      el("td", {}, r.kind === "sweep" ? sweepText(r) : settingsText(r.params), r.verdict ? el("div", { class: "verdict" }, r.verdict) : ""),
      el("td", {}, String(r.total)),
      el("td", { class: "status" }, statusText(r)));
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

// The sweep's table as `boardlab sweep` prints it; the most balanced variant's row is marked.
function renderSweep(run) {
  const s = run.sweep;
  const t = s.table;
  $("lab-sweep-verdict").textContent = run.verdict;
  const table = $("lab-sweep-table");
  table.tHead.replaceChildren(el("tr", {}, ...t.columns.map((c) => el("th", { scope: "col" }, c))));
  table.tBodies[0].replaceChildren(...t.rows.map((row, i) => el("tr", { class: i === s.best ? "best" : "" },
    ...row.map((cell) => el("td", {}, cell)))));
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
    const sweep = run.kind === "sweep";
    $("lab-run-title").textContent = sweep
      ? `${run.title} · sweep of ${run.sweep.varied.map(words).join(", ")} · ${run.sweep.variants.length} variants × ${run.sweep.games_each} games`
      : `${run.title} · ${run.total} games`;
    $("lab-run-settings").textContent = sweep ? sweepText(run) : settingsText(run.params);
    $("lab-bar").max = run.total;
    $("lab-bar").value = run.done;
    $("lab-count").textContent = `${run.done} of ${run.total} games`;
    $("lab-run").classList.remove("hidden"); // shown once it says something: its settings and progress
    root.dataset.runKind = run.kind;
    root.dataset.runStatus = run.status;
    root.dataset.runDone = String(run.done);
    if (run.status === "finished") {
      if (sweep) renderSweep(run);
      else renderReport(run);
      listRuns();
      return;
    }
    if (run.status === "failed" || run.status === "stopped") {
      $("lab-run-error").textContent = run.status === "failed" ? `The run failed: ${run.error}` : "The server stopped during this run; start it again to finish it.";
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
  $("lab-games").addEventListener("input", sweepSize);
  for (const r of document.querySelectorAll("input[name=lab-kind]")) r.addEventListener("change", () => setKind(r.value));
  if (new URLSearchParams(location.search).get("kind") === "sweep") $("lab-kind-sweep").checked = true;
  setKind(document.querySelector("input[name=lab-kind]:checked").value);
  await listRuns();
  root.dataset.ready = "1";
  const m = /run=([^&]+)/.exec(location.hash);
  if (m) show(decodeURIComponent(m[1]));
}

init();
