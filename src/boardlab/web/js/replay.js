// The replay viewer: step through a game record (uploaded, or a finished table's) one move at a time.

import { actorName, api, download, el, savedTables, showRules, toast } from "./api.js";
import { colour, renderScene } from "./render.js";

const $ = (id) => document.getElementById(id);
const root = $("replay-root");
let record = null;
let summary = null;
let step = 0;
let seat = null; // the viewer whose knowledge is shown: a seat, null (a spectator) or "all" (the whole record)
let timer = null;
let loading = 0;

// A record that cannot be replayed: said once, in the banner (no toast besides); the upload box comes back.
function refuse(title, message) {
  $("banner").classList.remove("hidden");
  $("banner").dataset.kind = "wait";
  $("banner-title").textContent = title;
  $("banner-detail").textContent = message;
  $("drop").classList.remove("hidden");
  root.dataset.ready = "error";
}

async function load(rec) {
  let s;
  try {
    s = await api("/api/replays", { method: "POST", body: { record: rec } });
  } catch (e) {
    refuse("This record cannot be replayed", e.message);
    return;
  }
  summary = s;
  record = rec;
  $("crumb").textContent = `${summary.title} · replay`;
  document.title = `${summary.title} · replay · boardlab`;
  const viewAs = $("view-as");
  viewAs.replaceChildren(el("option", { value: "" }, "Spectator"),
    ...summary.seats.map((name, s) => el("option", { value: s }, name)),
    el("option", { value: "all" }, "Full record (every card)"));
  if (typeof seat === "number" && seat >= summary.seats.length) seat = null;
  viewAs.value = seat === null ? "" : String(seat);
  $("slider").max = String(summary.steps);
  for (const id of ["banner", "controls", "side"]) $(id).classList.remove("hidden");
  $("drop").classList.add("hidden"); // out of the way: "Open another record" brings the file chooser back
  root.dataset.steps = String(summary.steps);
  await show(0); // a replay starts at the start
}

async function show(k) {
  if (!summary) return;
  k = Math.max(0, Math.min(summary.steps, k));
  const ticket = ++loading;
  let frame;
  try {
    const query = seat === "all" ? "?reveal=true" : seat === null ? "" : `?seat=${seat}`;
    frame = await api(`/api/replays/${summary.id}/${k}${query}`);
  } catch (e) {
    if (e.status === 404 && record) {
      summary = await api("/api/replays", { method: "POST", body: { record } });
      return show(k);
    }
    toast(e.message);
    return;
  }
  if (ticket !== loading) return;
  step = k;
  $("slider").value = String(k);
  $("counter").textContent = `move ${k} of ${summary.steps}`;
  $("banner").dataset.kind = frame.banner.kind;
  $("banner-title").textContent = frame.banner.title;
  $("banner-detail").textContent = frame.banner.detail;
  renderScene(root, frame.scene, { interactive: false });
  $("status-panel").classList.toggle("hidden", !(frame.scene.status || []).length);
  $("seats").replaceChildren(...frame.seats.map((s) => el("li", {},
    el("span", { class: "swatch", style: { background: colour(s.colour, "#888") } }), el("span", { class: "name" }, s.name))));
  const log = $("log");
  log.replaceChildren(...frame.log.map(([actor, text], i) => el("li", { class: i === frame.log.length - 1 ? "last" : "", value: i + 1 },
    el("span", { class: "who" }, `${actorName(actor, frame.seats, null)}: `), text)));
  log.scrollTop = log.scrollHeight;
  root.dataset.step = String(k);
  root.dataset.ready = "1";
}

function stop() {
  clearInterval(timer);
  timer = null;
  $("play").textContent = "play";
}

$("first").addEventListener("click", () => { stop(); show(0); });
$("prev").addEventListener("click", () => { stop(); show(step - 1); });
$("next").addEventListener("click", () => { stop(); show(step + 1); });
$("last").addEventListener("click", () => { stop(); show(summary ? summary.steps : 0); });
$("slider").addEventListener("input", (e) => { stop(); show(Number(e.target.value)); });
$("view-as").addEventListener("change", (e) => {
  const v = e.target.value;
  seat = v === "" ? null : v === "all" ? "all" : Number(v);
  show(step);
});
$("open-other").addEventListener("click", () => $("file").click());
$("play").addEventListener("click", () => {
  if (timer) { stop(); return; }
  if (summary && step >= summary.steps) show(0);
  $("play").textContent = "pause";
  timer = setInterval(() => {
    if (!summary || step >= summary.steps) { stop(); return; }
    show(step + 1);
  }, 700);
});
$("rules").addEventListener("click", () => { if (summary) showRules(summary.game, summary.title); });
$("save").addEventListener("click", () => { if (record) download(`${record.game}-replay.json`, JSON.stringify(record, null, 1)); });
document.addEventListener("keydown", (e) => {
  if (!summary || e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  if (e.key === "ArrowLeft") { stop(); show(step - 1); }
  if (e.key === "ArrowRight") { stop(); show(step + 1); }
});

$("file").addEventListener("change", async (e) => {
  const f = e.target.files && e.target.files[0];
  if (!f) return;
  let rec;
  e.target.value = ""; // the same file chosen again is a new choice
  try {
    rec = JSON.parse(await f.text());
  } catch {
    refuse("This file cannot be replayed", "That file is not JSON: a game record is a JSON file.");
    return;
  }
  stop();
  load(rec);
});

async function init() {
  const params = new URLSearchParams(location.search);
  const labRun = params.get("lab"); // a lab run's sample game (the /lab page links here)
  if (labRun) {
    try {
      await load(await api(`/api/lab/runs/${encodeURIComponent(labRun)}/samples/${encodeURIComponent(params.get("sample") || "0")}`));
    } catch (e) {
      toast(e.message || "The sample game could not be loaded.");
    }
    return;
  }
  const tableId = params.get("table");
  if (!tableId) return;
  // a token in the fragment (the table's public link carries one) works in any browser; else one this browser holds
  const m = /(?:^|[#&])t=([^&]*)/.exec(location.hash);
  const given = m ? decodeURIComponent(m[1]).split(",").filter(Boolean) : [];
  const saved = savedTables()[tableId] || {};
  const token = given[0] || (saved.tokens || [])[0];
  try {
    // no link here: a game on a player's profile opens for anyone (/api/players/games/{id}/record)
    const res = token
      ? await fetch(`/api/tables/${encodeURIComponent(tableId)}/record`, { headers: { Authorization: `Bearer ${token}` } })
      : await fetch(`/api/players/games/${encodeURIComponent(tableId)}/record`);
    if (!token && res.status === 404) {
      toast("This browser holds no link for that table; open a record file instead.");
      return;
    }
    const data = await res.json();
    if (!res.ok) throw new Error(data.message);
    await load(data);
  } catch (e) {
    toast(e.message || "The record could not be loaded.");
  }
}

init();
