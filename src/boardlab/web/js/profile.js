// A player's page: ratings per game, wins and losses by game, recent games (each opens its replay), tables in play.

import { api, el } from "./api.js";

const $ = (id) => document.getElementById(id);
const name = decodeURIComponent(location.pathname.replace(/^\/players\//, ""));

function table(head, rows) {
  return el("table", {}, el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, h)))),
    el("tbody", {}, ...rows.map((r) => el("tr", {}, ...r.map((c) => el("td", {}, c))))));
}

function who(o) {
  if (o.player) return el("a", { href: `/players/${encodeURIComponent(o.player)}` }, o.player);
  return o.kind === "ai" ? `${o.name}` : o.name;
}

function opponents(list) {
  const out = [];
  list.forEach((o, i) => { if (i) out.push(", "); out.push(who(o)); });
  return el("span", {}, ...out);
}

function change(g) {
  if (!g.rated || g.rating_before === null) return "not rated";
  const d = g.rating_after - g.rating_before;
  return el("span", { class: d >= 0 ? "up rating-change" : "down rating-change" }, `${g.rating_before} → ${g.rating_after} (${d >= 0 ? "+" : ""}${d})`);
}

const RESULT = { win: "Won", loss: "Lost", draw: "Draw" };

async function init() {
  $("crumb").textContent = name;
  $("player-name").textContent = name;
  document.title = `${name} · boardlab`;
  let p;
  try {
    p = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (e) {
    $("player-since").textContent = e.status === 404 ? "There is no player by this name." : e.message;
    $("profile").dataset.ready = "1";
    return;
  }
  $("player-since").textContent = `Playing since ${new Date(p.since * 1000).toLocaleDateString()}.`;
  $("ratings").replaceChildren(p.ratings.length
    ? table(["Game", "Rating", "Rated games", "Plays like"], p.ratings.map((r) => [
      el("a", { href: `/leaderboard?game=${encodeURIComponent(r.game)}` }, r.title),
      el("span", { class: "rating", "data-game": r.game }, r.provisional ? `${r.rating}?` : String(r.rating)),
      String(r.games),
      `the ${r.plays_like} AI`]))
    : el("p", { class: "muted" }, "No rated games yet."));
  if (p.ratings.some((r) => r.provisional)) $("ratings").append(el("p", { class: "small muted" }, "A rating with “?” is provisional: it settles after a few more rated games."));
  $("results").replaceChildren(p.results.length
    ? table(["Game", "Won", "Lost", "Draws"], p.results.map((r) => [r.title, String(r.wins), String(r.losses), String(r.draws)]))
    : el("p", { class: "muted" }, "No finished games yet."));
  $("recent").replaceChildren(p.recent.length
    ? table(["Game", "Against", "Result", "Rating", ""], p.recent.map((g) => [
      g.title, opponents(g.opponents), RESULT[g.result], change(g),
      el("a", { href: g.replay, "data-replay": g.table }, "Replay")]))
    : el("p", { class: "muted" }, "No finished games yet."));
  $("open").replaceChildren(p.open.length
    ? table(["Game", "Against", ""], p.open.map((g) => [
      g.title + (g.rated ? " (rated)" : ""), opponents(g.opponents),
      g.watch ? el("a", { href: g.watch }, "Watch") : el("a", { href: `/table/${encodeURIComponent(g.table)}` }, "Open")]))
    : el("p", { class: "muted" }, "No tables in play."));
  $("profile").dataset.ready = "1";
}

init();
