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

function showVars() {
  const t = current();
  const box = $("vars");
  box.replaceChildren(el("legend", {}, "Variables of the margin"));
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
    box.replaceChildren(...h.releases.map((r) => el("details", {},
      el("summary", {}, "#" + r.seq + " [" + r.margin.join(":") + "]" + (r.simulated ? " (simulated)" : "")),
      marginTable(t, r.margin, r.counts))));
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
    if (d.outcome === "denied") {
      out.replaceChildren(head, el("p", {}, "This margin cannot be released."));
    } else {
      out.replaceChildren(head, marginTable(t, d.margin, d.counts));
    }
  } catch (e) {
    out.replaceChildren(el("span", { class: "error" }, e.message));
  }
  showHistory();
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
