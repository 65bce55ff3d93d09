// Ending a game fairly, at the table: Resign (asked twice), Offer a draw, Accept or Decline one offered, Abort while
// a second player has not moved, Claim the win once another player has been away past the grace period, and a
// line telling everyone who is away. table.js calls initEndings once, drawEndings(view) after drawing each view and
// endingsPresence(message) for each presence message of the live socket (who came or went, away since when).

import { api, el, toast } from "./api.js";

const $ = (id) => document.getElementById(id);
let ctx = null; // { tableId, token(), onView(view), refresh() }
let view = null;
let away = []; // per seat: since when it has been away (server seconds), or null
let claimAfter = null; // seconds of grace before a claim; null: this table allows none
let confirming = false;
let ticker = null;
let busy = false;

export function initEndings(c) {
  ctx = c;
}

export function drawEndings(v) {
  if (view && view.revision !== v.revision) confirming = false;
  view = v;
  const e = v.endings || {};
  away = e.away_since || [];
  claimAfter = e.claim_after ?? null;
  render();
}

export function endingsPresence(m) {
  if (!view) return;
  if (Array.isArray(m.away_since)) away = m.away_since;
  if ("claim_after" in m && !view.terminal && view.seat !== null) claimAfter = m.claim_after;
  render();
}

function duration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min${s % 60 ? ` ${s % 60} s` : ""}`;
  const h = Math.floor(m / 60);
  return h < 48 ? `${h} h${m % 60 ? ` ${m % 60} min` : ""}` : `${Math.floor(h / 24)} days`;
}

// the seats away now, with how long, as the others see them (the viewer's own seat is never away to itself)
function awaySeats(now) {
  if (!view) return [];
  return view.seats
    .filter((s) => typeof away[s.seat] === "number" && !s.you)
    .map((s) => ({ seat: s, for: now - away[s.seat] }));
}

function render() {
  const v = view;
  const box = $("endings");
  if (!v || !box) return;
  const e = v.endings || {};
  const now = Date.now() / 1000;
  const gone = v.terminal ? [] : awaySeats(now);
  const line = $("away-line");
  const claimable = claimAfter !== null && v.seat !== null && !v.terminal;
  const due = gone.filter((g) => claimable && g.for >= claimAfter);
  line.replaceChildren(...gone.map((g) => {
    const wait = claimable && g.for < claimAfter ? `; you may claim the win in ${duration(claimAfter - g.for)}` : "";
    const text = `${g.seat.name} is away (${duration(g.for)})${wait}.`;
    return el("p", { "data-away": g.seat.seat }, text);
  }));
  line.classList.toggle("hidden", !gone.length);
  clearInterval(ticker);
  ticker = gone.length ? setInterval(render, 1000) : null;

  const offer = e.draw_offer;
  const mine = offer && v.seat !== null && offer.seat === v.seat;
  const offerer = offer ? v.seats[offer.seat] : null;
  const buttons = [];
  if (offer && !v.terminal) {
    const agreed = offer.agreed.filter((s) => s !== offer.seat).map((s) => v.seats[s].name);
    const text = mine ? "You offered a draw." : `${offerer.name} offers a draw.`;
    const also = agreed.length ? ` ${agreed.join(" and ")} ${agreed.length === 1 ? "accepts" : "accept"}.` : "";
    buttons.push(el("p", { class: "offer", id: "draw-offer-text" }, text + also));
  }
  if (e.can_answer_draw) {
    buttons.push(button("accept-draw", "Accept the draw", () => act("draw", { answer: "accept" }), "primary"));
    buttons.push(button("decline-draw", "Decline", () => act("draw", { answer: "decline" })));
  } else if (mine && !v.terminal) {
    buttons.push(button("withdraw-draw", "Withdraw the offer", () => act("draw", { answer: "decline" })));
  }
  if (e.can_offer_draw) buttons.push(button("offer-draw", "Offer a draw", () => act("draw", { answer: "offer" })));
  if (e.can_abort) buttons.push(button("abort", "Abort the game", () => act("abort")));
  if (due.length) {
    const names = due.map((g) => g.seat.name).join(" and ");
    buttons.push(button("claim-win", `Claim the win (${names} ${due.length === 1 ? "is" : "are"} away)`, () => act("claim-win"), "primary"));
  }
  if (e.can_resign) {
    if (confirming) {
      buttons.push(el("p", { class: "confirm" }, "Resign? You lose this game."));
      buttons.push(button("resign-yes", "Yes, resign", () => { confirming = false; act("resign"); }, "danger"));
      buttons.push(button("resign-no", "Keep playing", () => { confirming = false; render(); }));
    } else {
      buttons.push(button("resign", "Resign", () => { confirming = true; render(); $("resign-yes")?.focus(); }));
    }
  }
  $("endings-buttons").replaceChildren(...buttons);
  box.classList.toggle("hidden", !buttons.length && !gone.length);
}

function button(id, text, onclick, kind = "") {
  return el("button", { type: "button", id, class: kind, onclick }, text);
}

async function act(what, body) {
  if (busy || !view) return;
  busy = true;
  try {
    const r = await api(`/api/tables/${encodeURIComponent(ctx.tableId)}/${what}`, { method: "POST", token: ctx.token(), body });
    if (r && r.view) ctx.onView(r.view);
  } catch (e) {
    toast(e.message);
    ctx.refresh();
  } finally {
    busy = false;
  }
}
