"use strict";
// The web page of sdcopt serve: plain JavaScript over the /v1 API.

const $ = (id) => document.getElementById(id);
let tables = [];

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

async function api(path, options) {
  const r = await fetch(path, options);
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

function current() {
  return tables.find((t) => t.name === $("table").value);
}

// marginTable renders released counts, one row per margin cell.
function marginTable(t, margin, counts) {
  const vars = margin.map((n) => t.variables.find((v) => v.name === n));
  const head = el("tr", {}, ...margin.map((n) => el("th", {}, n)), el("th", {}, "count"));
  const rows = [head];
  counts.forEach((c, i) => {
    let rest = i;
    const levels = new Array(vars.length);
    for (let k = vars.length - 1; k >= 0; k--) {
      levels[k] = vars[k].levels[rest % vars[k].levels.length];
      rest = Math.floor(rest / vars[k].levels.length);
    }
    rows.push(el("tr", {}, ...levels.map((l) => el("td", {}, l)), el("td", { class: "num" }, String(c))));
  });
  return el("table", { class: "margin" }, ...rows);
}

// showTable shows what the table's policy allows and, when some of its
// releases are simulated, says that they are not data.
function showTable() {
  const t = current();
  const sim = $("mode-simulate");
  const allowed = !!(t && t.policy && t.policy.allow_simulate);
  sim.disabled = !allowed;
  if (!allowed && sim.checked) $("mode-release").checked = true;
  $("simulate-note").textContent = allowed ? "" :
    " (not enabled for this table: only the operator can allow simulated answers)";
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
    const cb = el("input", { type: "checkbox", value: v.name, id: "var-" + v.name });
    box.append(el("label", { for: "var-" + v.name }, cb, " " + v.name + " (" + v.levels.length + ")"));
  }
}

async function showHistory() {
  const t = current();
  const box = $("history");
  if (!t) { box.textContent = "No table."; return; }
  try {
    const h = await api("/v1/tables/" + encodeURIComponent(t.name) + "/releases");
    if (h.releases.length === 0) { box.textContent = "Nothing released yet."; return; }
    const items = h.releases.map((r) => el("details", {},
      el("summary", {}, "#" + r.seq + " [" + r.margin.join(":") + "]" + (r.simulated ? " (SIMULATED, NOT DATA)" : "")),
      marginTable(t, r.margin, r.counts)));
    if (h.notice) items.unshift(el("p", { class: "notice" }, h.notice + "."));
    box.replaceChildren(...items);
  } catch (e) {
    box.replaceChildren(el("span", { class: "error" }, e.message));
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
  try {
    const d = await api("/v1/tables/" + encodeURIComponent(t.name) + "/requests", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ margin, mode, idempotency_key: key, requester: "web" }),
    });
    const head = el("p", { id: "outcome" },
      el("span", { class: d.outcome }, d.outcome), " [" + d.margin.join(":") + "]");
    const parts = [head];
    if (d.notice) parts.push(el("p", { class: "notice", id: "answer-notice" }, d.notice + "."));
    if (d.outcome === "denied") {
      parts.push(el("p", {}, "This margin cannot be released."));
    } else {
      parts.push(marginTable(t, d.margin, d.counts));
    }
    out.replaceChildren(...parts);
  } catch (e) {
    out.replaceChildren(el("span", { class: "error" }, e.message));
  }
  await refreshTables();
  showHistory();
}

// refreshTables reloads the table list (release counts and notices change
// with every answer).
async function refreshTables() {
  try {
    tables = (await api("/v1/tables")).tables;
    showTable();
  } catch (e) {
    // The answer is shown; a failed refresh keeps the old list.
  }
}

async function init() {
  try {
    tables = (await api("/v1/tables")).tables;
  } catch (e) {
    $("result").replaceChildren(el("span", { class: "error" }, e.message));
    return;
  }
  $("table").replaceChildren(...tables.map((t) => el("option", { value: t.name }, t.name + " (" + t.cells + " cells)")));
  $("table").addEventListener("change", () => { showVars(); showHistory(); });
  $("request").addEventListener("click", request);
  showVars();
  showHistory();
  document.body.dataset.ready = "true";
}

init();
