"use strict";
// Shared by the analysts' and the operator's pages of sdcopt serve.

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// api fetches JSON; token (optional) is sent as a bearer token.
async function api(path, token, options) {
  const o = Object.assign({}, options || {});
  o.headers = Object.assign({}, o.headers || {});
  if (token) o.headers["Authorization"] = "Bearer " + token;
  const r = await fetch(path, o);
  let body = {};
  try { body = await r.json(); } catch (e) { /* not JSON */ }
  if (!r.ok) {
    const err = new Error(body.error || r.statusText);
    err.status = r.status;
    throw err;
  }
  return body;
}

const fmt = new Intl.NumberFormat("en");
const num = (x) => fmt.format(x);

// when renders an RFC 3339 time as "2026-11-25 20:41 UTC".
function when(t) {
  const d = new Date(t);
  if (isNaN(d)) return String(t);
  return d.toISOString().slice(0, 16).replace("T", " ") + " UTC";
}

function variable(table, name) {
  return table.variables.find((v) => v.name === name);
}

// varTitle is "Label (NAME)" or "NAME".
function varTitle(v) {
  return v.label ? v.label + " (" + v.name + ")" : v.name;
}

// levelText is the label of level i of v, or the level itself.
function levelText(v, i) {
  const l = v.level_labels && v.level_labels[i];
  return l ? l : v.levels[i];
}

// cellLevels returns the level indices of cell idx (row-major, the last
// variable fastest).
function cellLevels(vars, idx) {
  const lv = new Array(vars.length);
  for (let k = vars.length - 1; k >= 0; k--) {
    const n = vars[k].levels.length;
    lv[k] = idx % n;
    idx = Math.floor(idx / n);
  }
  return lv;
}

const PREVIEW_ROWS = 12;

// marginTable renders a margin's counts with totals: a cross-table with
// row and column totals for two variables, otherwise one row per cell
// and a total row (the first PREVIEW_ROWS rows, the rest on demand).
function marginTable(t, margin, counts) {
  const vars = margin.map((n) => variable(t, n));
  const total = counts.reduce((a, b) => a + b, 0);
  if (vars.length === 2 && vars[1].levels.length <= 12) {
    const [r, c] = vars;
    const nc = c.levels.length;
    const head = el("tr", {}, el("th", {}, varTitle(r) + " \\ " + varTitle(c)),
      ...c.levels.map((_, j) => el("th", { class: "num" }, levelText(c, j))), el("th", { class: "num total" }, "Total"));
    const rows = r.levels.map((_, i) => {
      const row = counts.slice(i * nc, (i + 1) * nc);
      return el("tr", {}, el("th", {}, levelText(r, i)), ...row.map((x) => el("td", { class: "num" }, num(x))),
        el("td", { class: "num total" }, num(row.reduce((a, b) => a + b, 0))));
    });
    const colTot = c.levels.map((_, j) => counts.filter((_, k) => k % nc === j).reduce((a, b) => a + b, 0));
    rows.push(el("tr", { class: "total" }, el("td", {}, "Total"), ...colTot.map((x) => el("td", { class: "num" }, num(x))),
      el("td", { class: "num" }, num(total))));
    return el("table", { class: "data margin" }, el("thead", {}, head), el("tbody", {}, ...rows));
  }
  const head = el("tr", {}, ...vars.map((v) => el("th", {}, varTitle(v))), el("th", { class: "num" }, "Count"));
  const body = el("tbody", {});
  const addRows = (from, to) => {
    for (let i = from; i < to; i++) {
      const lv = cellLevels(vars, i);
      body.append(el("tr", {}, ...lv.map((l, k) => el("td", {}, levelText(vars[k], l))), el("td", { class: "num" }, num(counts[i]))));
    }
  };
  addRows(0, Math.min(counts.length, PREVIEW_ROWS));
  const foot = el("tbody", {});
  if (counts.length > PREVIEW_ROWS) {
    const more = el("tr", { class: "more" }, el("td", { colspan: String(vars.length + 1) },
      el("button", { type: "button", class: "link show-all", onclick: () => { more.remove(); addRows(PREVIEW_ROWS, counts.length); } },
        "Show all " + num(counts.length) + " cells")));
    foot.append(more);
  }
  foot.append(el("tr", { class: "total" }, el("td", { colspan: String(vars.length) }, "Total"), el("td", { class: "num" }, num(total))));
  return el("table", { class: "data margin" }, el("thead", {}, head), body, foot);
}
