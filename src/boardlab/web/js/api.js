// Talking to the server, and remembering tokens in this browser.

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `request failed (${status})`);
    this.status = status;
    this.code = (body && body.error) || "error";
    this.body = body || {};
  }
}

export async function api(path, { method = "GET", body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  // signed in (js/account.js): writes carry the session's CSRF token, so the server counts them as the account's
  const csrf = method !== "GET" && /(?:^|; )boardlab_csrf=([^;]*)/.exec(document.cookie);
  if (csrf) headers["X-CSRF-Token"] = decodeURIComponent(csrf[1]);
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, { error: "network", message: "The server cannot be reached; retrying when it is back." });
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { message: text }; }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

const KEY = "boardlab:tables";

export function savedTables() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { return {}; }
}

export function saveTable(id, info) {
  const all = savedTables();
  all[id] = { ...(all[id] || {}), ...info };
  try { localStorage.setItem(KEY, JSON.stringify(all)); } catch { /* private mode: links still work */ }
  window.dispatchEvent(new CustomEvent("boardlab:saved", { detail: { id } }));
}

export function forgetTable(id) {
  const all = savedTables();
  delete all[id];
  try { localStorage.setItem(KEY, JSON.stringify(all)); } catch { /* ignore */ }
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    // styles through the CSSOM: the page's Content-Security-Policy refuses inline style attributes
    else if (k === "style") Object.assign(node.style, v);
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

let toastTimer = null;
// The value of a game option's input (made with data-option and data-type), as the game's options take it.
export function optionValue(input) {
  const type = input.dataset.type;
  if (type === "bool") return input.checked;
  if (input.tagName === "SELECT") return JSON.parse(input.value);
  if (type === "int") return parseInt(input.value, 10);
  if (type === "float") return parseFloat(input.value);
  return input.value;
}

export function toast(message) {
  let box = document.getElementById("toast");
  if (!box) {
    box = el("div", { id: "toast", class: "toast", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  box.textContent = message;
  box.classList.remove("hidden");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.add("hidden"), 4500);
}

export async function showRules(gameId, title) {
  let dlg = document.getElementById("rules-dialog");
  if (!dlg) {
    dlg = el("dialog", { id: "rules-dialog", "aria-labelledby": "rules-title" },
      el("div", { class: "dlg-head" },
        el("h2", { id: "rules-title" }),
        el("a", { id: "rules-open", target: "_blank", rel: "noopener", class: "small" }, "open in a tab"),
        el("button", { type: "button", onclick: () => dlg.close(), "aria-label": "Close rules" }, "Close")),
      el("div", { class: "dlg-body rules-html", id: "rules-body" }, "Loading…"));
    document.body.append(dlg);
  }
  dlg.querySelector("#rules-title").textContent = `${title || gameId}: rules`;
  dlg.querySelector("#rules-open").href = `/rules/${encodeURIComponent(gameId)}`;
  const body = dlg.querySelector("#rules-body");
  body.textContent = "Loading…";
  dlg.showModal();
  try {
    const data = await api(`/api/games/${encodeURIComponent(gameId)}/rules`);
    body.innerHTML = data.html; // produced by the server's escaping Markdown converter
    const { drawDiagrams } = await import("./pictures.js"); // its diagrams, drawn as the table draws the game
    drawDiagrams(body);
  } catch (e) {
    body.textContent = e.message;
  }
}

export function download(name, text) {
  const blob = new Blob([text], { type: "application/json" });
  const a = el("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

// Who made a log entry: a seat's name ("You" for the viewer), chance, or everyone at once.
export function actorName(actor, seats, viewer) {
  if (actor === -1) return "Chance";
  if (actor === -2) return "Everyone";
  if (viewer !== null && viewer !== undefined && actor === viewer) return "You";
  return (seats[actor] && seats[actor].name) || `Player ${actor + 1}`;
}
