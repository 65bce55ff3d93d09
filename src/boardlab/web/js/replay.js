// The replay viewer: step through a game record (uploaded, or a finished table's) one move at a time.

import { actorName, api, download, el, savedTables, showRules, toast } from "./api.js";
import { colour, renderScene } from "./render.js";

const $ = (id) => document.getElementById(id);
const root = $("replay-root");
let record = null;
let summary = null;
let step = 0;
let seat = null;
let timer = null;
let loading = 0;

async function load(rec) {
  try {
    summary = await api("/api/replays", { method: "POST", body: { record: rec } });
  } catch (e) {
    toast(e.message);
    $("banner").classList.remove("hidden");
    $("banner-title").textContent = "This record cannot be replayed";
    $("banner-detail").textContent = e.message;
    return;
  }
  record = rec;
  $("crumb").textContent = `${summary.title} · replay`;
  document.title = `${summary.title} · replay · boardlab`;
  const viewAs = $("view-as");
  viewAs.replaceChildren(el("option", { value: "" }, "Spectator"),
    ...summary.seats.map((name, s) => el("option", { value: s }, name)));
  $("slider").max = String(summary.steps);
  for (const id of ["banner", "controls", "side"]) $(id).classList.remove("hidden");
  $("drop").classList.add("compact");
  root.dataset.steps = String(summary.steps);
  await show(summary.finished ? summary.steps : 0);
}

async function show(k) {
  if (!summary) return;
  k = Math.max(0, Math.min(summary.steps, k));
  const ticket = ++loading;
  let frame;
  try {
    frame = await api(`/api/replays/${summary.id}/${k}${seat === null ? "" : `?seat=${seat}`}`);
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
$("view-as").addEventListener("change", (e) => { seat = e.target.value === "" ? null : Number(e.target.value); show(step); });
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
  try {
    rec = JSON.parse(await f.text());
  } catch {
    toast("That file is not JSON.");
    return;
  }
  stop();
  load(rec);
});

async function init() {
  const params = new URLSearchParams(location.search);
  const tableId = params.get("table");
  if (!tableId) return;
  const saved = savedTables()[tableId] || {};
  const token = (saved.tokens || [])[0];
  if (!token) {
    toast("This browser holds no link for that table; open a record file instead.");
    return;
  }
  try {
    const res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/record`, { headers: { Authorization: `Bearer ${token}` } });
    const data = await res.json();
    if (!res.ok) throw new Error(data.message);
    await load(data);
  } catch (e) {
    toast(e.message || "The record could not be loaded.");
  }
}

init();
