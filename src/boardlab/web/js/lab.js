// The lab page: start a balance run, watch it, read its report, list past runs, open sample games in the replay viewer.

import { api, el, toast } from "./api.js";

const $ = (id) => document.getElementById(id);
const root = $("lab-root");
let games = [];
let current = null; // the key of the run shown
let polling = 0;

function optionInput(o) {
  const id = `lab-opt-${o.name}`;
  let input;
  if (o.type === "bool") {
    input = el("input", { type: "checkbox", id, "data-option": o.name, "data-type": "bool" });
    input.checked = !!o.default;
  } else if (o.allowed) {
    input = el("select", { id, "data-option": o.name, "data-type": o.type },
      ...o.allowed.map((v) => el("option", { value: JSON.stringify(v) }, String(v))));
    input.value = JSON.stringify(o.default);
  } else if (o.type === "int" || o.type === "float") {
    input = el("input", { type: "number", id, "data-option": o.name, "data-type": o.type, step: o.type === "int" ? 1 : "any", value: o.default });
  } else {
    input = el("input", { type: "text", id, "data-option": o.name, "data-type": o.type, value: o.default ?? "" });
  }
  return el("div", { class: "field" }, el("label", { for: id }, o.name.replaceAll("_", " ")), input,
    el("span", { class: "desc" }, o.description));
}

function readOptions() {
  const out = {};
  for (const input of $("lab-options").querySelectorAll("[data-option]")) {
    const { option: name, type } = input.dataset;
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
  $("lab-games").max = String(data.max_games);
  const rows = data.runs.map((r) => {
    const tr = el("tr", { "data-key": r.key, class: r.key === current ? "current" : "" },
      el("td", {}, r.title || r.params.game),
      el("td", {}, settingsText(r.params), r.verdict ? el("div", { class: "verdict" }, r.verdict) : ""),
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
  $("lab-samples").replaceChildren(...(run.samples || []).map((s) => el("li", {},
    el("a", { href: `/replay?lab=${encodeURIComponent(run.key)}&sample=${s.index}`, "data-sample": s.index },
      `${s.label} (${s.length} moves)`))));
  $("lab-report").classList.remove("hidden");
}

async function show(key) {
  current = key;
  history.replaceState(null, "", `#run=${encodeURIComponent(key)}`);
  const ticket = ++polling;
  $("lab-run").classList.remove("hidden");
  $("lab-report").classList.add("hidden");
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
    $("lab-run-title").textContent = `${run.title} · ${run.total} games`;
    $("lab-run-settings").textContent = settingsText(run.params);
    $("lab-bar").max = run.total;
    $("lab-bar").value = run.done;
    $("lab-count").textContent = `${run.done} of ${run.total} games`;
    root.dataset.runStatus = run.status;
    root.dataset.runDone = String(run.done);
    if (run.status === "finished") {
      renderReport(run);
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
  $("lab-start").disabled = true;
  try {
    const run = await api("/api/lab/runs", { method: "POST", body });
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
  await listRuns();
  root.dataset.ready = "1";
  const m = /run=([^&]+)/.exec(location.hash);
  if (m) show(decodeURIComponent(m[1]));
}

init();
