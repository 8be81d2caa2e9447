"use strict";
// The analysts' page of sdcopt serve: plain JavaScript over the /v1 API.

let tables = [];
let me = null;
const TOKEN_KEY = "sdcopt-analyst-token";
const token = () => sessionStorage.getItem(TOKEN_KEY) || "";

function current() {
  return tables.find((t) => t.name === $("table").value);
}

// showWho shows who the server takes the user for, with a token form.
async function showWho() {
  const box = $("who");
  try {
    me = await api("/v1/whoami", token());
  } catch (e) {
    sessionStorage.removeItem(TOKEN_KEY);
    me = await api("/v1/whoami", "");
    box.replaceChildren(el("span", { class: "error" }, "Token refused: " + e.message));
  }
  const note = $("request-note");
  if (me.kind === "analyst" || me.kind === "proxy") {
    const parts = [el("span", { id: "who-name" }, "Signed in as ", el("strong", {}, me.requester))];
    if (me.kind === "analyst") {
      parts.push(el("button", { type: "button", class: "secondary", id: "signout", onclick: () => { sessionStorage.removeItem(TOKEN_KEY); showWho(); } }, "Sign out"));
    }
    box.replaceChildren(...parts);
    note.textContent = "Recorded as requested by " + me.requester + ".";
    $("request").disabled = false;
    return;
  }
  const input = el("input", { type: "password", id: "token", placeholder: "analyst token", autocomplete: "off" });
  const signin = () => { if (input.value.trim()) { sessionStorage.setItem(TOKEN_KEY, input.value.trim()); showWho(); } };
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") signin(); });
  if (!box.querySelector(".error")) box.replaceChildren();
  box.append(el("span", {}, "Not signed in"), input, el("button", { type: "button", class: "secondary", id: "signin", onclick: signin }, "Sign in"));
  if (me.anonymous_allowed) {
    note.textContent = "Anonymous: the request is recorded without a name.";
    $("request").disabled = false;
  } else {
    note.textContent = "Sign in with the token the operator gave you to request margins.";
    $("request").disabled = true;
  }
}

// showTable shows the table's size, its policy in words, what the policy
// allows and, when some of its releases are simulated, that they are not data.
function showTable() {
  const t = current();
  const sim = $("mode-simulate");
  const allowed = !!(t && t.policy && t.policy.allow_simulate);
  sim.disabled = !allowed;
  if (!allowed && sim.checked) $("mode-release").checked = true;
  $("simulate-note").textContent = allowed ? "" : " (not offered for this table)";
  if (t) {
    $("table-summary").textContent = t.variables.length + " variables, " + num(t.cells) + " cells, " +
      num(t.releases) + (t.releases === 1 ? " release" : " releases") + " so far.";
    $("policy").replaceChildren(el("strong", {}, "Policy. "), t.policy_text,
      el("span", { class: "version" }, "Policy version " + t.policy_version));
  }
  const box = $("notice");
  if (t && t.notice) {
    box.replaceChildren(el("strong", {}, "Warning: "), t.notice + ".");
    box.hidden = false;
  } else {
    box.replaceChildren();
    box.hidden = true;
  }
}

function showVars() {
  const t = current();
  const box = $("vars");
  box.replaceChildren(el("legend", {}, "Variables of the margin"));
  showTable();
  if (!t) return;
  for (const v of t.variables) {
    const id = "var-" + v.name;
    const levels = v.levels.map((l, i) => (v.level_labels && v.level_labels[i]) ? l + " = " + v.level_labels[i] : l);
    box.append(el("div", { class: "var" },
      el("input", { type: "checkbox", value: v.name, id }),
      el("label", { for: id },
        el("span", { class: "name" }, v.label ? v.label : v.name), v.label ? el("span", { class: "muted" }, " (" + v.name + ")") : null,
        el("div", { class: "levels" }, v.levels.length + " levels: " + levels.join(" · ")))));
  }
}

const csvURL = (t, seq) => "/v1/tables/" + encodeURIComponent(t.name) + "/releases/" + seq + "/csv";
const marginTitle = (t, margin) => margin.map((n) => { const v = variable(t, n); return v.label || v.name; }).join(" × ");

async function showHistory() {
  const t = current();
  const box = $("history");
  if (!t) { box.textContent = "No table."; return []; }
  try {
    const h = await api("/v1/tables/" + encodeURIComponent(t.name) + "/releases", token());
    if (h.releases.length === 0) { box.replaceChildren(el("p", { class: "muted" }, "Nothing released yet.")); return h.releases; }
    const head = el("tr", {}, el("th", {}, "#"), el("th", {}, "Time"), el("th", {}, "Margin"), el("th", { class: "num" }, "Cells"),
      el("th", { class: "num" }, "Total"), el("th", {}, "Status"), el("th", {}, ""));
    const body = el("tbody", {});
    for (const r of h.releases.slice().reverse()) {
      const status = r.simulated ? el("span", { class: "badge simulated" }, "simulated, not data") : el("span", { class: "badge released" }, "released");
      const row = el("tr", { id: "release-" + r.seq });
      const show = el("button", { type: "button", class: "link show", onclick: () => {
        const next = row.nextElementSibling;
        if (next && next.classList.contains("detail")) { next.remove(); show.textContent = "show"; return; }
        row.after(el("tr", { class: "detail" }, el("td", { colspan: "7" }, marginTable(t, r.margin, r.counts))));
        show.textContent = "hide";
      } }, "show");
      row.append(el("td", {}, String(r.seq)), el("td", { class: "time" }, when(r.time)), el("td", {}, marginTitle(t, r.margin)),
        el("td", { class: "num" }, num(r.counts.length)), el("td", { class: "num" }, num(r.counts.reduce((a, b) => a + b, 0))),
        el("td", {}, status), el("td", { class: "time" }, show, " ", el("a", { class: "link", href: csvURL(t, r.seq), download: "" }, "CSV")));
      body.append(row);
    }
    const items = [el("table", { class: "data list" }, el("thead", {}, head), body)];
    if (h.notice) items.unshift(el("p", { class: "notice" }, h.notice + "."));
    box.replaceChildren(...items);
    return h.releases;
  } catch (e) {
    box.replaceChildren(el("span", { class: "error" }, e.message));
    return [];
  }
}

async function request() {
  const t = current();
  const margin = [...document.querySelectorAll("#vars input:checked")].map((c) => c.value);
  const out = $("result");
  if (!t || margin.length === 0) {
    out.replaceChildren(el("span", { class: "error" }, "Tick at least one variable."));
    return;
  }
  const mode = document.querySelector("input[name=mode]:checked").value;
  const key = (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random());
  out.textContent = "Deciding…";
  let d;
  try {
    d = await api("/v1/tables/" + encodeURIComponent(t.name) + "/requests", token(), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ margin, mode, idempotency_key: key }),
    });
  } catch (e) {
    out.replaceChildren(el("span", { class: "error" }, e.message));
    return;
  }
  await refreshTables();
  const rels = await showHistory();
  const parts = [el("div", { class: "answer-head", id: "outcome" },
    el("span", { class: "badge " + d.outcome }, d.outcome), el("strong", {}, marginTitle(t, d.margin)),
    el("span", { class: "muted" }, "[" + d.margin.join(":") + "]"))];
  if (d.simulated) {
    parts.push(el("p", { class: "notice", id: "answer-notice" }, el("strong", {}, "This answer is simulated. "),
      "These counts are not data: " + d.notice + "."));
  } else if (d.notice) {
    parts.push(el("p", { class: "notice", id: "answer-notice" }, d.notice + "."));
  }
  if (d.outcome === "denied") {
    parts.push(el("p", { id: "denied" }, "This margin cannot be released: together with what has been released before, it would narrow some confidential counts more than the policy allows. No reason is given, since a reason would itself disclose. A margin with fewer or coarser variables may be released."));
  } else {
    const total = d.counts.reduce((a, b) => a + b, 0);
    parts.push(el("p", { class: "muted" }, num(d.counts.length) + " cells, total " + num(total) + "."));
    parts.push(marginTable(t, d.margin, d.counts));
    const rel = rels.find((r) => r.request_id === d.request_id);
    if (rel) {
      parts.push(el("div", { class: "actions" }, el("a", { class: "button", id: "download", href: csvURL(t, rel.seq), download: "" },
        "Download CSV"), el("span", { class: "muted" }, "release #" + rel.seq)));
    }
  }
  out.classList.remove("muted");
  out.replaceChildren(...parts);
}

// refreshTables reloads the table list (release counts and notices change
// with every answer).
async function refreshTables() {
  try {
    tables = (await api("/v1/tables", token())).tables;
    showTable();
  } catch (e) {
    // The answer is shown; a failed refresh keeps the old list.
  }
}

async function init() {
  await showWho();
  try {
    tables = (await api("/v1/tables", token())).tables;
  } catch (e) {
    $("result").replaceChildren(el("span", { class: "error" }, e.message));
    return;
  }
  $("table").replaceChildren(...tables.map((t) => el("option", { value: t.name }, t.name)));
  $("table").addEventListener("change", () => { showVars(); showHistory(); });
  $("request").addEventListener("click", request);
  showVars();
  await showHistory();
  document.body.dataset.ready = "true";
}

init();
