// Accounts in the page header: sign in, create an account, sign out (here or everywhere), delete the account.
// Optional: a guest plays as before. Once signed in, the tables this browser holds links for become the account's.

import { api, el, savedTables, toast } from "./api.js";

let me = null;
const ready = api("/api/account").then((a) => { me = a; return a; }).catch(() => ({ signed_in: false }));

// Who is signed in here: { signed_in, name, csrf }.
export function whoami() { return ready; }

// The seats this browser holds (its "Your tables") become the account's: each table asked once per account.
async function claimSaved() {
  if (!me || !me.signed_in) return;
  const key = `boardlab:claimed:${me.name}`;
  let done = {};
  try { done = JSON.parse(localStorage.getItem(key) || "{}"); } catch { done = {}; }
  const tables = [];
  for (const [id, t] of Object.entries(savedTables())) {
    if (done[id] || t.mode === "hotseat") continue;
    const tokens = [...(t.tokens || [])];
    for (const link of [t.links && t.links.host].filter(Boolean)) {
      const m = /#t=(.*)$/.exec(link);
      if (m) tokens.push(...decodeURIComponent(m[1]).split(",").filter(Boolean));
    }
    if (tokens.length) tables.push({ table: id, tokens: [...new Set(tokens)].slice(0, 16) });
  }
  if (!tables.length) return;
  try {
    await api("/api/account/claim", { method: "POST", body: { tables: tables.slice(0, 200) } });
    for (const t of tables) done[t.table] = 1;
    localStorage.setItem(key, JSON.stringify(done));
  } catch { /* tried again on the next page */ }
}

function dialog() {
  let dlg = document.getElementById("account-dialog");
  if (dlg) return dlg;
  const name = el("input", { id: "account-name", type: "text", maxlength: 32, autocomplete: "username", required: true });
  const pass = el("input", { id: "account-password", type: "password", maxlength: 256, autocomplete: "current-password", required: true });
  const error = el("p", { class: "error", id: "account-error", role: "alert" });
  const go = async (path) => {
    error.textContent = "";
    try {
      me = await api(path, { method: "POST", body: { name: name.value.trim(), password: pass.value } });
      dlg.close();
      pass.value = "";
      await claimSaved();
      location.reload();
    } catch (e) {
      error.textContent = e.message;
    }
  };
  dlg = el("dialog", { id: "account-dialog", "aria-labelledby": "account-title" },
    el("div", { class: "dlg-head" }, el("h2", { id: "account-title" }, "Sign in"),
      el("button", { type: "button", onclick: () => dlg.close() }, "Close")),
    el("form", { class: "dlg-body create", id: "account-form", onsubmit: (ev) => { ev.preventDefault(); go("/api/account/signin"); } },
      el("p", { class: "small muted" }, "An account keeps your games, ratings and tables together on any device. Guests can keep playing without one."),
      el("div", { class: "field" }, el("label", { for: "account-name" }, "Name"), name),
      el("div", { class: "field" }, el("label", { for: "account-password" }, "Password (at least 8 characters)"), pass),
      error,
      el("div", { class: "actions" },
        el("button", { type: "submit", class: "primary", id: "account-signin" }, "Sign in"),
        el("button", { type: "button", id: "account-signup", onclick: () => { if (document.getElementById("account-form").reportValidity()) go("/api/account/signup"); } }, "Create an account"))));
  document.body.append(dlg);
  return dlg;
}

function deleteDialog() {
  const pass = el("input", { id: "delete-password", type: "password", maxlength: 256, autocomplete: "current-password" });
  const error = el("p", { class: "error", role: "alert" });
  const dlg = el("dialog", { id: "delete-dialog", "aria-labelledby": "delete-title" },
    el("div", { class: "dlg-head" }, el("h2", { id: "delete-title" }, "Delete my account"),
      el("button", { type: "button", onclick: () => dlg.remove() }, "Close")),
    el("div", { class: "dlg-body" },
      el("p", {}, "Your name, password and ratings are deleted. The games you played stay for the other players, showing you as \u201cFormer player\u201d."),
      el("div", { class: "field" }, el("label", { for: "delete-password" }, "Your password"), pass),
      error,
      el("button", { type: "button", class: "danger", id: "delete-go", onclick: async () => {
        try {
          await api("/api/account/delete", { method: "POST", body: { password: pass.value } });
          location.href = "/";
        } catch (e) { error.textContent = e.message; }
      } }, "Delete my account")));
  document.body.append(dlg);
  dlg.showModal();
}

async function signOut(everywhere) {
  try {
    await api(everywhere ? "/api/account/signout-everywhere" : "/api/account/signout", { method: "POST" });
    location.reload();
  } catch (e) { toast(e.message); }
}

async function drawControl() {
  const box = document.getElementById("account"); // the lobby's header has the control; other pages only claim
  const a = await ready;
  if (!box) { claimSaved(); return; }
  if (!a.signed_in) {
    box.append(el("a", { href: "/leaderboard" }, "Leaderboards"),
      el("button", { type: "button", id: "account-open", onclick: () => dialog().showModal() }, "Sign in"));
    return;
  }
  const menu = el("details", { class: "account-menu" },
    el("summary", { id: "account-me" }, a.name),
    el("div", { class: "account-items" },
      el("a", { href: `/players/${encodeURIComponent(a.name)}`, id: "account-profile" }, "My profile"),
      el("button", { type: "button", id: "account-signout", onclick: () => signOut(false) }, "Sign out"),
      el("button", { type: "button", id: "account-signout-all", onclick: () => signOut(true) }, "Sign out everywhere"),
      el("button", { type: "button", id: "account-delete", onclick: deleteDialog }, "Delete my account")));
  box.append(el("a", { href: "/leaderboard" }, "Leaderboards"), menu);
  claimSaved();
}

// A seat taken in this browser (an invite link opened, a table made or joined) is the signed-in account's.
window.addEventListener("boardlab:saved", () => { claimSaved(); });

drawControl();
