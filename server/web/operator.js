"use strict";
// The operator's page of sdcopt serve, rendered from the /v1/admin API.

const OP_KEY = "sdcopt-operator-token";
let opTables = [];

const opToken = () => sessionStorage.getItem(OP_KEY) || "";

function dataTable(headers, rows, cls) {
  return el("table", { class: "data list " + (cls || "") },
    el("thead", {}, el("tr", {}, ...headers.map((h) => el("th", { class: h.num ? "num" : "" }, h.text || h)))),
    el("tbody", {}, ...rows));
}

// evidence renders a decision's operator report.
function evidence(d) {
  const op = d.operator || {};
  const facts = [];
  if (op.implied) facts.push("implied by " + (op.source || "an earlier release") + " (nothing computed)");
  if (op.method) facts.push("bounds by " + op.method + (op.sharp ? " (proven sharp)" : " (not proven sharp)"));
  if (op.cached) facts.push("from the cache");
  if (op.warm) facts.push("warm start");
  if (op.seconds !== undefined) facts.push(op.seconds.toFixed(3) + " s");
  if (op.cells) facts.push(num(op.cells) + " cells checked");
  if (op.inconsistent) facts.push("the true margin contradicts the simulated public view");
  if (op.simulation_method) facts.push("simulated by " + op.simulation_method + ", seed " + op.simulation_seed);
  const parts = [el("p", { class: "small" }, facts.join("; ") + ".")];
  const risky = [].concat((op.disclosed || []).map((c) => ["disclosed", c]), (op.undecided || []).map((c) => ["undecided", c]));
  if (risky.length) {
    const rows = risky.slice(0, 10).map(([k, c]) => el("tr", {}, el("td", {}, k), el("td", {}, c.label), el("td", { class: "num" }, num(c.count)),
      el("td", { class: "num" }, num(c.lower) + " – " + num(c.upper)), el("td", { class: "num" }, num(c.upper - c.lower)),
      el("td", { class: "num" }, num(c.required_width))));
    parts.push(dataTable(["", "Cell", { text: "Count", num: true }, { text: "Bounds", num: true }, { text: "Width", num: true },
      { text: "Required width", num: true }], rows));
    if (risky.length > 10) parts.push(el("p", { class: "muted small" }, "… and " + (risky.length - 10) + " more cells."));
  }
  return parts;
}

// microdataInfo: the options a microdata table was loaded with.
function microdataInfo(t) {
  const o = t.microdata_options;
  if (!o) return [];
  const given = o.levels_given || [];
  const parts = [num(t.records) + " records",
    given.length ? "levels of " + given.join(", ") + " from a levels file, the others sorted" : "levels sorted",
    o.min_level_count > 1 ? "levels held by fewer than " + o.min_level_count + " records merged into (other)" : "no level merged",
    "max cells " + num(o.max_cells),
    "protect collapsed: " + (o.protect_collapsed ? "yes" : "no")];
  return [el("dt", {}, "Microdata"), el("dd", {}, parts.join("; "))];
}

async function showTable() {
  const name = $("op-table").value;
  const t = opTables.find((x) => x.name === name);
  if (!t) return;
  $("op-info").replaceChildren(
    el("dt", {}, "Source file"), el("dd", { class: "mono" }, t.source || "—"),
    el("dt", {}, "sha256"), el("dd", { class: "mono" }, t.sha256 || "—"),
    el("dt", {}, "Loaded"), el("dd", {}, when(t.loaded_at)),
    el("dt", {}, "Layout"), el("dd", {}, t.variables.map(varTitle).join(", ") + " — " + num(t.cells) + " cells"),
    el("dt", {}, "Releases"), el("dd", {}, num(t.releases) + (t.simulated_releases ? " (" + t.simulated_releases + " simulated)" : "")),
    ...microdataInfo(t));
  $("op-policy").replaceChildren(el("strong", {}, "Policy. "), t.policy_text,
    el("span", { class: "version" }, "Version " + t.policy_version + ". Change it with PUT /v1/admin/tables/" + t.name + "/policy."));
  const log = await api("/v1/admin/tables/" + encodeURIComponent(name) + "/audit", opToken());
  // Activity per requester.
  const by = new Map();
  for (const e of log.decisions) {
    const a = by.get(e.requester) || { n: 0, released: 0, simulated: 0, denied: 0, last: "" };
    a.n++;
    a[e.outcome] = (a[e.outcome] || 0) + 1;
    if (e.time > a.last) a.last = e.time;
    by.set(e.requester, a);
  }
  const act = [...by.entries()].sort((x, y) => y[1].n - x[1].n).map(([who, a]) => el("tr", {},
    el("td", {}, who), el("td", { class: "num" }, num(a.n)), el("td", { class: "num" }, num(a.released)),
    el("td", { class: "num" }, num(a.simulated)), el("td", { class: "num" }, num(a.denied)), el("td", { class: "time" }, when(a.last))));
  $("op-activity").replaceChildren(act.length ? dataTable(["Requester", { text: "Requests", num: true }, { text: "Released", num: true },
    { text: "Simulated", num: true }, { text: "Denied", num: true }, "Last request"], act, "activity") : el("p", { class: "muted" }, "No requests yet."));
  // Decisions, newest first, evidence on demand.
  const rows = [];
  for (const e of log.decisions.slice().reverse()) {
    let d = {};
    try { d = typeof e.decision === "string" ? JSON.parse(e.decision) : e.decision; } catch (x) { /* shown without evidence */ }
    const row = el("tr", { class: "decision" });
    const btn = el("button", { type: "button", class: "link evidence", onclick: () => {
      const next = row.nextElementSibling;
      if (next && next.classList.contains("detail")) { next.remove(); btn.textContent = "evidence"; return; }
      row.after(el("tr", { class: "detail" }, el("td", { colspan: "7" }, ...evidence(d))));
      btn.textContent = "hide";
    } }, "evidence");
    row.append(el("td", { class: "time" }, when(e.time)), el("td", {}, e.requester), el("td", {}, e.margin.split(":").join(" × ")), el("td", {}, e.mode),
      el("td", {}, el("span", { class: "badge " + e.outcome }, e.outcome)),
      el("td", { class: "small" }, (d.operator && d.operator.explanation) || ""), el("td", {}, btn));
    rows.push(row);
  }
  $("op-decisions").replaceChildren(rows.length ? dataTable(["Time", "Requester", "Margin", "Mode", "Outcome", "Reason", ""], rows, "decisions")
    : el("p", { class: "muted" }, "No decisions yet."));
}

async function showAnalysts() {
  const a = (await api("/v1/admin/analysts", opToken())).analysts;
  $("op-analysts").replaceChildren(a.length ? dataTable(["Analyst", "Token issued", "Revoked"],
    a.map((x) => el("tr", {}, el("td", {}, x.name), el("td", {}, when(x.created_at)), el("td", {}, x.revoked_at ? when(x.revoked_at) : "—"))))
    : el("p", { class: "muted" }, "No analysts yet."));
}

async function signIn() {
  try {
    opTables = (await api("/v1/admin/tables", opToken())).tables;
  } catch (e) {
    sessionStorage.removeItem(OP_KEY);
    $("op-error").textContent = e.status === 401 ? "Wrong token." : e.message;
    $("signin-card").hidden = false;
    $("op-main").hidden = true;
    return;
  }
  $("signin-card").hidden = true;
  $("op-main").hidden = false;
  $("op-signout").hidden = false;
  $("op-table").replaceChildren(...opTables.map((t) => el("option", { value: t.name }, t.name)));
  await showTable();
  await showAnalysts();
  document.body.dataset.ready = "true";
}

function init() {
  $("op-table").addEventListener("change", showTable);
  const go = () => { const v = $("op-token").value.trim(); if (v) { sessionStorage.setItem(OP_KEY, v); signIn(); } };
  $("op-signin").addEventListener("click", go);
  $("op-signout").addEventListener("click", () => { sessionStorage.removeItem(OP_KEY); location.reload(); });
  $("op-token").addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
  if (opToken()) signIn();
}

init();
