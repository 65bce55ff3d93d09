// Each game's leaderboard: rated players, established ones first, and the fixed rating of each AI level.

import { api, el } from "./api.js";

const $ = (id) => document.getElementById(id);

async function draw(game) {
  $("leaderboard").dataset.ready = "0";
  const b = await api(`/api/leaderboard/${encodeURIComponent(game)}`);
  $("board-note").textContent = `Ratings from rated games. A “?” marks a provisional rating (fewer than ${b.provisional_games} rated games).`;
  $("board").replaceChildren(b.players.length
    ? el("table", {}, el("thead", {}, el("tr", {}, ...["#", "Player", "Rating", "Rated games", "Plays like"].map((h) => el("th", {}, h)))),
      el("tbody", {}, ...b.players.map((p) => el("tr", { "data-player": p.name },
        el("td", {}, String(p.rank)),
        el("td", {}, el("a", { href: `/players/${encodeURIComponent(p.name)}` }, p.name)),
        el("td", {}, p.provisional ? `${p.rating}?` : String(p.rating)),
        el("td", {}, String(p.games)),
        el("td", {}, `the ${p.plays_like} AI`)))))
    : el("p", { class: "muted" }, `Nobody has played ${b.title} rated yet.`));
  $("levels").replaceChildren(el("p", { class: "small muted" }, "Each AI level plays at its measured strength in this game; in a rated game against it, it counts at this rating."),
    el("ul", {}, ...Object.entries(b.levels).map(([lv, r]) => el("li", {}, `The ${lv} AI: ${r}`))));
  $("leaderboard").dataset.ready = "1";
}

async function init() {
  const data = await api("/api/games");
  const select = $("board-game");
  const games = data.games.filter((g) => g.max_players >= 2 && !g.cooperative);
  select.replaceChildren(...games.map((g) => el("option", { value: g.id }, g.title)));
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && games.some((g) => g.id === wanted)) select.value = wanted;
  select.addEventListener("change", () => {
    history.replaceState(null, "", `/leaderboard?game=${encodeURIComponent(select.value)}`);
    draw(select.value);
  });
  if (select.value) await draw(select.value);
}

init();
