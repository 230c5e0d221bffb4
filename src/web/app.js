"use strict";
// The web calculator's page. Every number it shows comes from the API
// (exact fractions as "n/d" text); the page only draws them, and turns
// them into floats for display. Errors come with a typed kind and origin,
// and are worded here from those, never from the message's text.
const $ = (s) => document.querySelector(s);
// The page's whole state, in one object. `last` is the request behind the
// result shown (its path and body, for the exports) and its JSON; `seq`
// numbers the requests so a late answer never overwrites a newer one; the
// recompute and the card search each have their own debounce timer, so
// typing in one never cancels the other.
const S = {
  params: [],
  byName: {},
  hasDb: false,
  mode: "attack",
  last: null,
  setups: [],
  attacks: [],
  conditions: new Set(),
  seq: 0,
  timers: { run: null, search: null },
};
// Parameters of the popular web calculator, read where they mean the same.
const ALIASES = { dice: "power", acc: "accuracy", critical: "crit", criticalhit: "crit", critical_hit: "crit", shield: "shields", dlucky: "defender-lucky", hp: "health" };
// The popular calculator's eight, first, by side.
const POPULAR = { attacker: ["power", "accuracy", "crit", "fury", "lucky"], defender: ["parry", "shields", "armor"] };
// Health and counters lead their side's group.
const LEADS = ["attacker-health", "attacker-counters", "health", "counters"];

// ---- Numbers -------------------------------------------------------------

// "n/d" as BigInts, for fractions of any size (denominators reach 6^1000).
function bigFrac(f) { const [n, d] = String(f).split("/"); return [BigInt(n), BigInt(d || "1")]; }
// A float for display of an exact "n/d".
function frac(s) {
  try { const [n, d] = bigFrac(s); return d ? Number((n * 10n ** 18n) / d) / 1e18 : NaN; } catch (e) { return NaN; }
}
function pct(s) { return (100 * frac(s)).toFixed(2) + "%"; }
function esc(t) { return String(t).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]); }
// A fraction that fits its box: the whole of it when short; else its first
// digits, with the whole fraction on hover (title), on tap (the `full`
// class) and in `data-exact` (copy and export use the API's text).
const SHORT = 19;
function shortFrac(f) {
  const s = String(f);
  if (s.length <= SHORT) return s;
  const [n, d] = s.split("/");
  const cut = (x) => (x.length > 7 ? x.slice(0, 6) + "…" : x);
  return `${cut(n)}/${cut(d || "1")} (${n.length}/${(d || "1").length} digits)`;
}
function exactEl(f) {
  return `<span class="exact" data-exact="${esc(f)}" title="${esc(f)}" data-short="${esc(shortFrac(f))}">${esc(shortFrac(f))}</span>`;
}
// A tap on a shortened fraction shows it whole, and back.
document.addEventListener("click", (e) => {
  const el = e.target.closest && e.target.closest(".exact");
  if (!el || el.dataset.exact === el.dataset.short) return;
  el.classList.toggle("full");
  el.textContent = el.classList.contains("full") ? el.dataset.exact : el.dataset.short;
});

// ---- The form --------------------------------------------------------------

function field(p) {
  const row = document.createElement("div");
  row.className = "row";
  const id = "f-" + p.name;
  let input;
  if (p.kind === "switch") input = `<input type="checkbox" id="${id}" data-p="${p.name}">`;
  else if (p.kind === "budget") input = `<input type="text" id="${id}" data-p="${p.name}" placeholder="4 (default)" inputmode="text" autocomplete="off">`;
  else if (p.kind === "word") input = `<select id="${id}" data-p="${p.name}"><option value="">(default)</option>${p.words.map((w) => `<option value="${w}">${w}</option>`).join("")}</select>`;
  else input = `<input type="number" id="${id}" data-p="${p.name}" min="${p.min ?? (p.kind === "health" ? 1 : 0)}" ${p.max ? `max="${p.max}"` : ""} step="1" inputmode="numeric">`;
  row.innerHTML = `<label for="${id}" title="${esc(p.doc)}">${esc(p.label)}</label>${input}<span class="err" id="e-${p.name}" aria-live="polite"></span>`;
  return row;
}

function buildForm(choices) {
  for (const side of ["attacker", "defender"]) for (const n of POPULAR[side]) $("#pop-" + side).appendChild(field(S.byName[n]));
  const popular = new Set([...POPULAR.attacker, ...POPULAR.defender]);
  const rest = S.params.filter((p) => !popular.has(p.name));
  rest.sort((a, b) => (LEADS.includes(b.name) ? 1 : 0) - (LEADS.includes(a.name) ? 1 : 0));
  for (const p of rest) $(`#g-${p.side} .grid`).appendChild(field(p));
  // Overkill is the attacker's, the third unit the defender's side; the
  // rest are the players' choices.
  for (const c of choices) {
    const p = { ...c, min: c.kind === "health" ? 1 : 0 };
    S.byName[c.name] = p;
    const where = c.name === "overkill" ? "#g-attacker" : c.name === "other-health" ? "#g-defender" : "#g-play";
    $(`${where} .grid`).appendChild(field(p));
  }
  document.querySelectorAll("#attack-inputs [data-p]").forEach((el) => el.addEventListener("input", changed));
}

// A group that holds a value is open; the others are closed until used.
function openGroups() {
  for (const g of document.querySelectorAll("details.group")) {
    const used = [...g.querySelectorAll("[data-p]")].some((el) => (el.type === "checkbox" ? el.checked : el.value !== ""));
    if (used) g.open = true;
  }
}

function state() {
  const q = new URLSearchParams();
  document.querySelectorAll("#attack-inputs [data-p]").forEach((el) => {
    if (el.type === "checkbox") { if (el.checked) q.set(el.dataset.p, "true"); }
    else if (el.value !== "") q.set(el.dataset.p, el.value);
  });
  return q;
}

function load(q) {
  document.querySelectorAll("#attack-inputs [data-p]").forEach((el) => {
    const v = q.get(el.dataset.p);
    if (el.type === "checkbox") el.checked = v === "true" || v === "on" || v === "1";
    else el.value = v === null ? "" : v;
  });
  openGroups();
}

// The whole page as a query: the attack's fields, then the mode and what
// the mode holds.
function pageState() {
  const q = state();
  if (S.mode !== "attack") q.set("mode", S.mode);
  for (const s of S.setups) q.append("setup", s.name + "|" + s.q);
  for (const a of S.attacks) q.append("combine", a);
  if ($("#combine-how").value !== "convolve") q.set("how", $("#combine-how").value);
  if ($("#scenario-text").value !== SCENARIO) q.set("scenario", $("#scenario-text").value);
  if ($("#battle-text").value !== BATTLE) q.set("battle", $("#battle-text").value);
  const a = $("#card-att").value.trim(), d = $("#card-def").value.trim();
  if (a) q.set("attacker", a);
  if (d) q.set("defender", d);
  for (const c of S.conditions) q.append("condition", c);
  return q;
}

function loadPage(q) {
  load(q);
  S.setups = q.getAll("setup").map((v) => { const i = v.lastIndexOf("|"); return { name: v.slice(0, i), q: v.slice(i + 1) }; }).filter((s) => s.name);
  S.attacks = q.getAll("combine");
  $("#combine-how").value = q.get("how") === "plan" ? "plan" : "convolve";
  $("#scenario-text").value = q.get("scenario") || SCENARIO;
  $("#battle-text").value = q.get("battle") || BATTLE;
  $("#card-att").value = q.get("attacker") || "";
  $("#card-def").value = q.get("defender") || "";
  S.conditions = new Set(q.getAll("condition"));
  drawAttacks();
  showMode(["compare", "combine", "cards", "scenario", "battle"].includes(q.get("mode")) && (q.get("mode") !== "cards" || S.hasDb) ? q.get("mode") : "attack");
}

// The attack a page opens with when its link holds none.
const DEFAULT_ATTACK = "power=5&crit=1&parry=1&health=4";

function urlState() {
  const q = new URLSearchParams(location.search);
  for (const [a, b] of Object.entries(ALIASES)) if (q.has(a) && !q.has(b)) { q.set(b, q.get(a)); q.delete(a); }
  if (q.get("armor") === "1") q.set("armor", "true");
  // A mode of the attack form (attack, compare, combine) opened without an
  // attack gets the default one, never an empty form.
  const formMode = !["cards", "scenario", "battle"].includes(q.get("mode"));
  if (formMode && !S.params.some((p) => q.has(p.name))) for (const [k, v] of new URLSearchParams(DEFAULT_ATTACK)) q.set(k, v);
  return q;
}

function changed() { clearTimeout(S.timers.run); S.timers.run = setTimeout(() => run(true), 150); }
function searchChanged() { clearTimeout(S.timers.search); S.timers.search = setTimeout(searchCards, 120); }

// ---- Errors, in a player's words -------------------------------------------

function clearErrors() {
  $("#error").textContent = "";
  document.querySelectorAll(".err").forEach((e) => (e.textContent = ""));
  document.querySelectorAll(".invalid").forEach((e) => e.classList.remove("invalid"));
}

// The words for an error about a form field, from its typed kind and
// origin and the field's own label and bounds (from /api/params).
function fieldWords(e, p) {
  const v = e.origin.value;
  const n = v !== undefined && /^-?\d+$/.test(v.trim()) ? Number(v) : null;
  if (e.kind === "range" && n !== null && p.min !== undefined && n < p.min) return `${p.label} must be at least ${p.min}`;
  if (e.kind === "range" && n !== null && p.max !== undefined && n > p.max) return `${p.label} can be at most ${p.max}`;
  if (e.kind === "syntax" && p.kind === "switch") return `${p.label}: on or off`;
  if (e.kind === "syntax" && p.kind === "budget") return `${p.label}: a whole number or unlimited`;
  if (e.kind === "syntax" || (e.kind === "range" && n === null)) return `${p.label} must be a whole number`;
  if (e.kind === "unknown" && p.words) return `${p.label}: one of ${p.words.join(", ")}`;
  return `${p.label}: ${e.message}`;
}

function showError(e) {
  const param = e.origin && e.origin.param;
  const spot = param && document.getElementById("e-" + param);
  const input = param && document.getElementById("f-" + param);
  const p = param && S.byName[param];
  // Beside the field when the field is on the page (a scenario's errors
  // name no form field).
  if (spot && input && p && !input.closest(".hidden")) {
    spot.textContent = fieldWords(e, p);
    input.classList.add("invalid");
    const group = input.closest("details");
    if (group) group.open = true;
  } else {
    const where = { attacker: "#card-att", defender: "#card-def", spec: null }[param];
    if (where) $(where).classList.add("invalid");
    $("#error").textContent = e.message;
  }
  $("#bar").textContent = "Fix the marked field";
}

// ---- The API ---------------------------------------------------------------

// One request to the API: a GET, or a POST of `body` as JSON. The answer
// is JSON, or text when `text` is set (the exports); an error answer is
// thrown with its typed kind and origin.
async function fetchApi(path, body, text) {
  const r = await fetch(path, body ? { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) } : {});
  if (!r.ok) {
    const j = await r.json();
    const e = new Error(j.error || r.statusText);
    e.origin = j.origin || {};
    e.kind = j.kind;
    throw e;
  }
  return text ? r.text() : r.json();
}
const api = (path, body) => fetchApi(path, body, false);

// A request whose answer is the result shown: remembered for the exports.
async function solve(path, body) {
  const json = await api(path, body);
  return { path, body, json };
}

// Each mode: the request it makes (a string when it lacks input: a hint)
// and the function that draws its answer.
const MODES = {
  attack: { request: attackRequest, render: renderAttack },
  compare: { request: compareRequest, render: renderCompare },
  combine: { request: combineRequest, render: renderCombine },
  scenario: { request: scenarioRequest, render: renderScenario },
  battle: { request: battleRequest, render: renderBattle },
  cards: { request: cardsRequest, render: renderCards },
};

async function run(push) {
  const my = ++S.seq;
  const url = "?" + pageState().toString();
  if (push && url !== location.search) history.pushState(null, "", url);
  clearErrors();
  try {
    const mode = MODES[S.mode];
    const req = mode.request();
    if (typeof req === "string") {
      S.last = null;
      $("#summary").innerHTML = `<div class="card"><span class="t">${esc(req)}</span></div>`;
      for (const id of ["#charts", "#tables", "#cardview"]) $(id).innerHTML = "";
      $("#bar").textContent = req;
      return;
    }
    const result = await req;
    if (my !== S.seq) return;
    S.last = result;
    await mode.render(result.json);
  } catch (e) {
    if (my === S.seq) showError(e);
  }
}

function attackRequest() {
  const q = state();
  if (!q.has("power")) return "Give the attacker's power.";
  return solve("/api/attack?" + q.toString());
}

// ---- Results ---------------------------------------------------------------

function card(key, title, value, exact, cls, note) {
  return `<div class="card ${cls || ""}" data-key="${esc(key)}"><span class="t">${esc(title)}</span><b>${esc(value)}</b>${exact ? exactEl(exact) : ""}${note ? `<span class="exact">${esc(note)}</span>` : ""}</div>`;
}

// The headline: expected damage and P(discard), then what else the attack
// has to say, smaller.
function summaryCards(j) {
  const s = [];
  s.push(card("mean", "Expected damage", frac(j.defender_damage.mean).toFixed(4), j.defender_damage.mean, "head"));
  if (j.defender_discarded) s.push(card("discard", "P(defender discarded)", pct(j.defender_discarded), j.defender_discarded, "head"));
  else if (S.mode === "attack") s.push(card("discard", "P(defender discarded)", "—", null, "head minor", "give the defender's health"));
  const minor = (key, t, v, e) => s.push(card(key, t, v, e, "minor"));
  if (Object.keys(j.attacker_damage.pmf).some((k) => k !== "0")) minor("attacker-mean", "Expected damage to the attacker", frac(j.attacker_damage.mean).toFixed(4), j.attacker_damage.mean);
  if (j.attacker_discarded) minor("attacker-discard", "P(attacker discarded)", pct(j.attacker_discarded), j.attacker_discarded);
  const q = state();
  // Stun shows only when some unit has it: in the attack form when it is
  // given, in a scenario when its text names it.
  const stun = (flag) => (S.mode === "attack" ? q.get(flag) : S.mode === "scenario" && /stun/i.test($("#scenario-text").value));
  if (stun("stun")) minor("stun", "P(attacker's Stun lands)", pct(j.attacker_stun_lands), j.attacker_stun_lands);
  if (stun("defender-stun")) minor("defender-stun", "P(defender's Stun lands)", pct(j.defender_stun_lands), j.defender_stun_lands);
  if (j.objective) minor("objective", "Objective: " + j.objective.name, Number(j.objective.value_f64).toFixed(4), j.objective.value);
  if (j.foresight) minor("foresight", "Foresight's best guess", j.foresight.best_guess + " hits", j.foresight.probability);
  if (j.used) for (const [k, v] of Object.entries(j.used)) minor("used", "Used: " + k, pct(v), v);
  return s.join("");
}

function setBar(text) { $("#bar").textContent = text; }

function renderAttack(j) {
  $("#summary").innerHTML = summaryCards(j);
  setBar(`E[damage] ${frac(j.defender_damage.mean).toFixed(3)}` + (j.defender_discarded ? ` · P(discard) ${pct(j.defender_discarded)}` : ""));
  const ds = dists(j);
  const series = ds.filter(([, , cum]) => cum).map(([t, d]) => [t, d]);
  $("#charts").innerHTML = `<div class="charts2">${chart({ title: "P(damage = k) to the defender", series: [["defender", j.defender_damage]], steps: false })}${chart({ title: "P(damage ≥ k)", series, steps: true })}</div>`;
  $("#tables").innerHTML = ds.map(([t, d]) => table(t, d)).join("");
}

function dists(j) {
  const out = [["Damage to the defender", j.defender_damage, true]];
  if (j.attacker_damage && Object.keys(j.attacker_damage.pmf).some((k) => k !== "0")) out.push(["Damage to the attacker", j.attacker_damage, true]);
  out.push(["Hits of the final roll", j.hits, false]);
  return out;
}

// The exact P(≥ k) at every integer k from 0 to past the largest outcome:
// the API sums the tail exactly at each outcome (`at_least`); between
// outcomes it is the tail at the next outcome, past the last it is 0.
function tailAt(d, kmax) {
  const ks = Object.keys(d.pmf).map(Number).sort((a, b) => a - b);
  const out = [];
  for (let k = 0; k <= kmax; k++) {
    const next = ks.find((x) => x >= k);
    out.push([k, next === undefined ? "0" : d.at_least[next]]);
  }
  return out;
}

function table(title, d) {
  const ks = Object.keys(d.pmf).map(Number).sort((a, b) => a - b);
  const rows = ks.map((k) => `<tr><td>${k}</td><td>${exactEl(d.pmf[k])}</td><td>${pct(d.pmf[k])}</td><td title="${esc(d.at_least[k])}" data-exact="${esc(d.at_least[k])}">${pct(d.at_least[k])}</td></tr>`);
  return `<h2 class="sub">${esc(title)}</h2><div class="scroll" tabindex="0" role="region" aria-label="${esc(title)}"><table data-title="${esc(title)}"><tr><th>k</th><th>P(= k)</th><th>%</th><th>P(≥ k)</th></tr>${rows.join("")}</table></div><small>expected value ${exactEl(d.mean)} = ${frac(d.mean).toFixed(4)}</small>`;
}

// ---- Charts ----------------------------------------------------------------

// Series are told apart without colour: each has its own line style and
// marker shape, shown in the legend.
// From /api/params (`chart_styles`): the one description the CLI's SVG
// files use too.
let STYLES = [];
function marker(shape, x, y, color, extra, inner) {
  const r = 4, body = inner || "";
  const a = `fill="${color}" ${extra}`;
  switch (shape) {
    case "square": return `<rect x="${f2(x - r)}" y="${f2(y - r)}" width="${2 * r}" height="${2 * r}" ${a}>${body}</rect>`;
    case "triangle": return `<path d="M${f2(x)} ${f2(y - r - 1)}L${f2(x + r + 1)} ${f2(y + r)}L${f2(x - r - 1)} ${f2(y + r)}Z" ${a}>${body}</path>`;
    case "diamond": return `<path d="M${f2(x)} ${f2(y - r - 1)}L${f2(x + r + 1)} ${f2(y)}L${f2(x)} ${f2(y + r + 1)}L${f2(x - r - 1)} ${f2(y)}Z" ${a}>${body}</path>`;
    case "cross": return `<path d="M${f2(x - r)} ${f2(y - r)}L${f2(x + r)} ${f2(y + r)}M${f2(x + r)} ${f2(y - r)}L${f2(x - r)} ${f2(y + r)}" stroke="${color}" stroke-width="2.5" ${extra}>${body}</path>`;
    default: return `<circle cx="${f2(x)}" cy="${f2(y)}" r="${r}" ${a}>${body}</circle>`;
  }
}
const f2 = (v) => Math.round(v * 100) / 100;
// Ticks for an axis from 0 to at least `top`: steps of 1, 2, 2.5 or 5
// times a power of ten, about five of them.
function ticks(top) {
  if (!(top > 0)) top = 1;
  const raw = top / 5, p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * p).find((s) => s >= raw);
  const n = Math.ceil(top / step - 1e-9);
  return Array.from({ length: n + 1 }, (_, i) => Math.round(i * step * 1e9) / 1e9);
}
const pctLabel = (p) => `${+(100 * p).toFixed(1)}%`;

// A chart of the series' P(= k) as bars (axis scaled to the data), or of
// P(≥ k) as steps: flat across each integer k at its exact tail, with a
// marker at k. Every drawn value carries its exact fraction, shown on
// hover (title) and on tap (the readout under the chart).
function chart({ title, series, steps }) {
  // The legend sits under the plot, one row per series, so it never
  // covers a point.
  const legend = series.length > 1 || steps ? series.length : 0;
  const W = 460, P = 200, L = 52, R = 10, T = 26, B = 40, H = T + P + B + 16 * legend;
  const kmax = Math.max(1, ...series.flatMap(([, d]) => Object.keys(d.pmf).map(Number)));
  const band = (W - L - R) / (kmax + 1);
  const x = (k) => L + (k + 0.5) * band;
  const yTicks = steps ? ticks(1) : ticks(Math.max(...series.flatMap(([, d]) => Object.values(d.pmf).map(frac))));
  const top = yTicks[yTicks.length - 1];
  const base = T + P;
  const y = (p) => base - (p / top) * P;
  const id = "c" + Math.random().toString(36).slice(2, 8);
  let g = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(title)}" class="chart" data-title="${esc(title)}" data-kind="${steps ? "steps" : "bars"}" data-readout="${id}">`;
  g += `<text x="${L}" y="16" font-size="13" font-weight="600" fill="#1b1f24">${esc(title)}</text>`;
  for (const p of yTicks) g += `<line class="grid" data-prob="${p}" x1="${L}" x2="${W - R}" y1="${f2(y(p))}" y2="${f2(y(p))}" stroke="#e3e6ea"/><text x="${L - 6}" y="${f2(y(p) + 4)}" font-size="11" text-anchor="end" fill="#444">${pctLabel(p)}</text>`;
  const every = Math.ceil((kmax + 1) / 20);
  for (let k = 0; k <= kmax; k++) if (k % every === 0) g += `<text class="tick" data-k="${k}" x="${f2(x(k))}" y="${base + 15}" font-size="11" text-anchor="middle" fill="#444">${k}</text>`;
  g += `<text x="${f2(L + (W - L - R) / 2)}" y="${base + 32}" font-size="12" text-anchor="middle" fill="#1b1f24">damage k</text>`;
  g += `<text transform="translate(14 ${f2(T + P / 2)}) rotate(-90)" font-size="12" text-anchor="middle" fill="#1b1f24">${steps ? "P(damage ≥ k)" : "P(damage = k)"}</text>`;
  g += `<line x1="${L}" x2="${W - R}" y1="${base}" y2="${base}" stroke="#888"/>`;
  series.forEach(([name, d], i) => {
    const st = STYLES[i % STYLES.length];
    const tip = (k, what, f) => `data-tip="${esc(name)}: ${what} ${k}) = ${esc(f)} (${pct(f)})"`;
    if (steps) {
      const pts = tailAt(d, kmax);
      let path = "";
      pts.forEach(([k, f], j) => {
        const yy = f2(y(frac(f)));
        path += (j === 0 ? `M${f2(L + k * band)} ${yy}` : `V${yy}`) + `H${f2(L + (k + 1) * band)}`;
      });
      g += `<path class="step" data-series="${esc(name)}" d="${path}" fill="none" stroke="${st.color}" stroke-width="2" stroke-dasharray="${st.dash}"/>`;
      for (const [k, f] of pts) g += marker(st.marker, x(k), y(frac(f)), st.color, `class="pt" ${tip(k, "P(≥", f)} data-k="${k}" data-exact="${esc(f)}"`, `<title>${esc(name)}: P(≥ ${k}) = ${esc(f)} (${pct(f)})</title>`);
    } else {
      const bw = (band * 0.8) / series.length;
      for (const [k, f] of Object.entries(d.pmf)) {
        const p = frac(f), kk = Number(k);
        g += `<rect x="${f2(x(kk) - (band * 0.8) / 2 + i * bw)}" y="${f2(y(p))}" width="${f2(bw)}" height="${f2(base - y(p))}" fill="${st.color}" ${tip(k, "P(=", f)} data-k="${k}"><title>${esc(name)}: P(= ${k}) = ${esc(f)} (${pct(f)})</title></rect>`;
      }
    }
  });
  if (legend) {
    series.forEach(([name], i) => {
      const st = STYLES[i % STYLES.length];
      const ly = base + B + 4 + 16 * i, lx = L;
      g += `<line x1="${lx}" x2="${lx + 26}" y1="${ly}" y2="${ly}" stroke="${st.color}" stroke-width="2" stroke-dasharray="${st.dash}"/>` + marker(st.marker, lx + 13, ly, st.color, "") + `<text x="${lx + 32}" y="${ly + 4}" font-size="11" fill="#1b1f24">${esc(name)}</text>`;
    });
  }
  return `<figure class="chartbox">${g}</svg><figcaption class="readout" id="${id}">Tap or hover a point for its exact value.</figcaption></figure>`;
}

// Exact values on hover and tap: the readout under a chart says the value
// under the pointer or the finger.
for (const ev of ["pointerover", "click"]) {
  document.addEventListener(ev, (e) => {
    const el = e.target.closest && e.target.closest("[data-tip]");
    if (!el) return;
    const svg = el.closest("svg");
    const out = svg && document.getElementById(svg.dataset.readout);
    if (out) out.textContent = el.dataset.tip;
  });
}

// ---- Compare -----------------------------------------------------------------

function compareList() { return S.setups.length ? S.setups : [{ name: "current", q: state().toString() }]; }

async function compareRequest() {
  const parts = [];
  for (const s of compareList()) parts.push({ name: s.name, path: "/api/attack?" + s.q, result: await api("/api/attack?" + s.q) });
  return { parts, json: parts.map((p) => ({ name: p.name, result: p.result })) };
}

function renderCompare(json) {
  const res = json.map((x) => [x.name, x.result]);
  const base = frac(res[0][1].defender_damage.mean);
  const own = S.setups.length > 0;
  $("#summary").innerHTML = `<div class="card head wide"><table id="compare-table"><tr><th>setup</th><th>E[damage]</th><th>P(discard)</th><th title="difference from the first setup">±</th>${own ? "<th><span class=\"sr\">remove</span></th>" : ""}</tr>${res.map(([n, j], i) => {
    const m = frac(j.defender_damage.mean);
    return `<tr><td>${esc(n)}</td><td data-exact="${esc(j.defender_damage.mean)}">${m.toFixed(4)}<br>${exactEl(j.defender_damage.mean)}</td><td>${j.defender_discarded ? pct(j.defender_discarded) : "—"}</td><td>${(m - base >= 0 ? "+" : "") + (m - base).toFixed(4)}</td>${own ? `<td><button data-del="${i}" aria-label="remove ${esc(n)}">✕</button></td>` : ""}</tr>`;
  }).join("")}</table>${own ? "" : "<small>Add setups above to compare them; this is the current attack.</small>"}</div>`;
  document.querySelectorAll("[data-del]").forEach((b) => b.addEventListener("click", () => { S.setups.splice(Number(b.dataset.del), 1); run(true); }));
  setBar(res.map(([n, j]) => `${n}: ${frac(j.defender_damage.mean).toFixed(3)}`).join(" · "));
  $("#charts").innerHTML = chart({ title: "P(damage ≥ k), setups compared", series: res.map(([n, j]) => [n, j.defender_damage]), steps: true });
  $("#tables").innerHTML = "";
}

// ---- Combine -------------------------------------------------------------------

function combineRequest() {
  if (!S.attacks.length) return "Add attacks to combine: set an attack in the form, then “Add the current attack”.";
  const how = $("#combine-how").value;
  return solve("/api/combine", { how, attacks: S.attacks.map((a) => Object.fromEntries(new URLSearchParams(a))) });
}

function renderCombine(j) {
  $("#summary").innerHTML = card("mean", "Expected total damage", frac(j.total.mean).toFixed(4), j.total.mean, "head") + (j.discarded ? card("discard", "P(defender discarded)", pct(j.discarded), j.discarded, "head") : "");
  setBar(`E[total] ${frac(j.total.mean).toFixed(3)}` + (j.discarded ? ` · P(discard) ${pct(j.discarded)}` : ""));
  $("#charts").innerHTML = chart({ title: "P(total damage ≥ k)", series: [["total", j.total]], steps: true });
  $("#tables").innerHTML = table("Total damage", j.total);
}

function drawAttacks() {
  $("#attacks").innerHTML = S.attacks.map((a, i) => `<li><small>${esc(a)}</small> <button data-rm="${i}" aria-label="remove attack ${i + 1}">remove</button></li>`).join("");
  document.querySelectorAll("[data-rm]").forEach((b) => b.addEventListener("click", () => { S.attacks.splice(Number(b.dataset.rm), 1); drawAttacks(); run(true); }));
}

// ---- Scenario ------------------------------------------------------------------

// The scenario the tab opens with: a defender guarded by an interceptor.
const SCENARIO = JSON.stringify({
  attacker: { name: "Darth Vader", power: 6, health: 7, keywords: ["Critical Hit 2", "Pay 1 Force -> Deflect 1", "Lucky 1"] },
  defender: { name: "Luke Skywalker", power: 5, health: 5, keywords: ["Parry 1", "Pay 2 Force -> Evade 2", "Retaliate 2"] },
  others: [{ name: "Clone Guard", side: "defender", power: 3, health: 4, keywords: ["Pay 0 Force -> Intercept"] }],
  policy: { objective: "discard" },
}, null, 1);

function scenarioRequest() {
  let body;
  try { body = JSON.parse($("#scenario-text").value); } catch (e) { throw new Error("The scenario is not JSON: " + e.message); }
  return solve("/api/scenario", body);
}

function renderScenario(j) {
  renderAttack(j);
  const names = Object.keys(j.damage_by_unit || {});
  $("#tables").innerHTML = `<h2 class="sub">Each unit</h2><div class="scroll" tabindex="0" role="region" aria-label="Each unit"><table id="units-table"><tr><th>unit</th><th>E[damage]</th><th>exact</th><th>P(discarded)</th></tr>${names.map((n) => {
    const d = j.damage_by_unit[n], p = (j.discarded_by_unit || {})[n];
    return `<tr><td>${esc(n)}</td><td>${frac(d.mean).toFixed(4)}</td><td data-exact="${esc(d.mean)}">${exactEl(d.mean)}</td><td>${p ? pct(p) : "—"}</td></tr>`;
  }).join("")}</table></div>` + $("#tables").innerHTML;
}

// ---- Battle --------------------------------------------------------------------

// The battle the tab opens with: two units a side in the Character arena.
const BATTLE = JSON.stringify({
  units: [
    { name: "Vader", side: "dark", arena: "Character", speed: 50, power: 4, health: 4, keywords: ["Critical Hit 1"] },
    { name: "Trooper", side: "dark", arena: "Character", speed: 30, power: 2, health: 2 },
    { name: "Luke", side: "light", arena: "Character", speed: 50, power: 4, health: 4, keywords: ["Parry 1"] },
    { name: "Han", side: "light", arena: "Character", speed: 40, power: 3, health: 3, keywords: ["Lucky 1"] },
  ],
  objective: "discard-difference",
}, null, 1);

function battleRequest() {
  let body;
  try { body = JSON.parse($("#battle-text").value); } catch (e) { throw new Error("The battle is not JSON: " + e.message); }
  return solve("/api/battle", body);
}

// The answer first: who controls each arena and the best first attack;
// then every alternative of the first decision, and every unit's fate by
// arena and side.
function renderBattle(j) {
  const s = [];
  for (const [arena, c] of Object.entries(j.arenas)) {
    s.push(card("control-" + arena + "-dark", arena + ": P(dark controls)", pct(c.dark), c.dark, "head"));
    s.push(card("control-" + arena + "-light", arena + ": P(light controls)", pct(c.light), c.light, "head"));
  }
  if (j.first) s.push(card("first", "Best first attack (" + j.first.player + ")", j.first.best, j.first.options[0].value, "head"));
  else s.push(card("first", "First attack", "none", null, "head", "no arena has units of both sides"));
  if (Object.keys(j.arenas).length > 1) for (const side of ["dark", "light"]) s.push(card("two-" + side, "P(" + side + " controls two arenas)", pct(j.control_two[side]), j.control_two[side], "minor"));
  for (const [arena, c] of Object.entries(j.arenas)) {
    s.push(card("contested-" + arena, arena + ": P(contested)", pct(c.contested), c.contested, "minor"));
    s.push(card("empty-" + arena, arena + ": P(empty)", pct(c.empty), c.empty, "minor"));
  }
  s.push(card("value", "Objective (" + j.objective + "), dark", frac(j.value).toFixed(4), j.value, "minor"));
  $("#summary").innerHTML = s.join("");
  $("#bar").textContent = j.first ? "Best: " + j.first.best : "No attack";
  $("#charts").innerHTML = "";
  const first = j.first ? `<h2 class="sub">First decision (${esc(j.first.player)})</h2><div class="scroll" tabindex="0" role="region" aria-label="First decision"><table id="first-table"><tr><th>choice</th><th>value</th><th>exact</th></tr>${j.first.options.map((o) => `<tr><td>${esc(o.choice)}</td><td>${frac(o.value).toFixed(4)}</td><td data-exact="${esc(o.value)}">${exactEl(o.value)}</td></tr>`).join("")}</table></div>` : "";
  const units = `<h2 class="sub">Each unit</h2><div class="scroll" tabindex="0" role="region" aria-label="Each unit"><table id="battle-units"><tr><th>unit</th><th>survives</th><th>E[ctrs]</th><th>first out</th></tr>${j.units.map((u) => `<tr><td>${esc(u.name)}<br><small>${esc(u.side)}, ${esc(u.arena)}</small></td><td data-exact="${esc(u.survives)}">${pct(u.survives)}</td><td data-exact="${esc(u.expected_counters)}">${frac(u.expected_counters).toFixed(3)}</td><td data-exact="${esc(u.discarded_first)}">${pct(u.discarded_first)}</td></tr>`).join("")}</table></div>`;
  $("#tables").innerHTML = first + units;
}

// ---- Cards ---------------------------------------------------------------------

function cardsRequest() {
  const a = $("#card-att").value.trim(), d = $("#card-def").value.trim();
  if (!a || !d) return "Pick an attacker and a defender: search a card, then its buttons.";
  const q = new URLSearchParams({ attacker: a, defender: d });
  for (const c of S.conditions) q.append("condition", c);
  return solve("/api/cards/attack?" + q.toString());
}

// Each card of both units, as players see it, with what each ability did
// in this attack.
async function renderCards(j) {
  renderAttack(j);
  const specs = [["Attacker", $("#card-att").value.trim()], ["Defender", $("#card-def").value.trim()]];
  const my = S.seq;
  const pieces = await Promise.all(specs.map(([, s]) => api("/api/cards/piece?spec=" + encodeURIComponent(s)).catch(() => null)));
  if (my !== S.seq) return;
  $("#cardview").innerHTML = `<div class="cardview">${specs.map(([who], i) => pieceView(who, pieces[i], j)).join("")}</div>`;
  document.querySelectorAll("[data-cond]").forEach((c) => c.addEventListener("change", () => { c.checked ? S.conditions.add(c.dataset.cond) : S.conditions.delete(c.dataset.cond); run(true); }));
}

const ROLE = { top: "", beneath: "beneath, in the stack", pilot: "pilot" };
// What one ability did in this attack, for the side its unit is on
// (`who`: Attacker or Defender; `acts`: the sides it can take part on, from
// the API's reading).
function status(c, a, inPlay, acts, role, who, j) {
  if (a.class === "not-attack") return `<span class="status">no part in an attack</span>`;
  if (a.class === "not-understood") return `<span class="status">not understood: not applied</span>`;
  if (a.class === "unmodelled") return `<span class="status">not modelled: not applied</span>`;
  if (!inPlay) return `<span class="status">${role === "beneath" ? "beneath the top card: not in play" : "does not fit this unit"}</span>`;
  const side = who === "Attacker" ? "attacking" : "defending";
  if (!(acts || []).includes(side)) return `<span class="status">no part when its unit is ${side}</span>`;
  const applied = (j.applied || []).find((x) => x.card === c.name && x.text === a.text);
  // A condition the user switched on keeps its switch, to switch it off.
  if (S.conditions.has(a.text)) return `<label class="status on"><input type="checkbox" data-cond="${esc(a.text)}" checked> switched on${applied ? ": " + esc(applied.how) : ""}</label>`;
  if (applied) return `<span class="status on">✔ ${esc(applied.how)}</span>`;
  const waiting = (j.waiting || []).some((w) => w.card === c.name && w.text === a.text);
  if (waiting) return `<label class="status"><input type="checkbox" data-cond="${esc(a.text)}"> the cards can't tell: switch on</label>`;
  if (a.class === "keyword" || a.class === "pilot") return `<span class="status on">✔ applied while ${side}</span>`;
  return `<span class="status">condition not met: not applied</span>`;
}

function pieceView(who, piece, j) {
  if (!piece) return `<div class="tcg"><h2 class="name">${esc(who)}</h2><small>not found</small></div>`;
  return piece.cards.map(({ role, card: c, in_play, acts }) => {
    const stats = [["cost", c.cost], ["speed", c.speed], ["power", c.power], ["health", c.health]].filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => `${k} ${v}`).join(" · ");
    const abilities = (c.abilities || []).map((a, i) => `<div class="ability"><span class="cls ${esc(a.class)}">${esc(a.class)}</span>${esc(a.text)}<br>${status(c, a, in_play[i], (acts || [])[i], role, who, j)}</div>`).join("");
    return `<article class="tcg" data-card="${esc(c.name)}"><span class="meta">${esc(who)}${ROLE[role] ? ": " + ROLE[role] : ""}</span><h2 class="name">${esc(c.name)}</h2><div class="meta">${esc(c.set)} · ${esc(c.card_type)}${c.subtype ? " · " + esc(c.subtype) : ""}</div><div class="stats">${esc(stats)}</div><div class="text">${esc(c.text || "")}</div>${abilities}</article>`;
  }).join("");
}

async function searchCards() {
  const q = $("#card-q").value.trim();
  if (!q) { $("#card-list").innerHTML = ""; return; }
  try {
    const cards = await api("/api/cards?q=" + encodeURIComponent(q));
    if ($("#card-q").value.trim() !== q) return;
    if (!cards.length) {
      // Nothing holds the text: the nearest names, each a search.
      const near = (await api("/api/cards/nearest?q=" + encodeURIComponent(q))).nearest;
      if ($("#card-q").value.trim() !== q) return;
      $("#card-list").innerHTML = `<div class="hit" id="no-card">No card holds “${esc(q)}”.${near.length ? ` Nearest names: ${near.map((n) => `<button data-near="${esc(n)}">${esc(n)}</button>`).join(" ")}` : ""}</div>`;
      document.querySelectorAll("#card-list [data-near]").forEach((b) => b.addEventListener("click", () => { $("#card-q").value = b.dataset.near; searchCards(); }));
      return;
    }
    $("#card-list").innerHTML = cards.slice(0, 50).map((c, i) => `<div class="hit" data-i="${i}"><b>${esc(c.name)}</b> <small>${esc(c.set)} · ${esc(c.card_type)} · ${c.power ?? "*"}/${c.health ?? "*"}</small><div class="acts">
      <button data-pick="att">Attacker</button><button data-pick="def">Defender</button><button data-pick="att+">Stack under attacker</button><button data-pick="def+">Stack under defender</button><button data-pick="att@">Pilot the attacker</button><button data-pick="def@">Pilot the defender</button></div></div>`).join("");
    document.querySelectorAll("#card-list [data-pick]").forEach((b) => b.addEventListener("click", () => {
      const c = cards[Number(b.closest(".hit").dataset.i)];
      const how = b.dataset.pick;
      const input = $(how.startsWith("att") ? "#card-att" : "#card-def");
      const joint = how.endsWith("+") ? " + " : how.endsWith("@") ? " with " : null;
      input.value = joint && input.value.trim() ? input.value.trim() + joint + c.name : c.name;
      S.conditions.clear();
      run(true);
    }));
  } catch (e) { showError(e); }
}

// ---- Exports, modes, start -------------------------------------------------------

// An export of the result shown: its JSON as the page holds it, or its
// distributions as CSV or Markdown, written by the API (`format=`). A
// comparison exports each setup's attack in turn.
async function exportText(kind) {
  if (!S.last) return "";
  if (kind === "json") return JSON.stringify(S.last.json, null, 2);
  const withFormat = (path) => path + (path.includes("?") ? "&" : "?") + "format=" + kind;
  if (S.last.parts) {
    const texts = [];
    for (const p of S.last.parts) texts.push((kind === "md" ? "## " : "# ") + p.name + "\n\n" + (await fetchApi(withFormat(p.path), null, true)));
    return texts.join("\n");
  }
  return fetchApi(withFormat(S.last.path), S.last.body, true);
}

function setMode(m) {
  showMode(m);
  run(true);
}

function showMode(m) {
  S.mode = m;
  document.querySelectorAll("#tabs button").forEach((b) => { b.classList.toggle("on", b.dataset.mode === m); b.setAttribute("aria-pressed", String(b.dataset.mode === m)); });
  $("#attack-inputs").classList.toggle("hidden", m === "cards" || m === "scenario" || m === "battle");
  $("#scenario-inputs").classList.toggle("hidden", m !== "scenario");
  $("#battle-inputs").classList.toggle("hidden", m !== "battle");
  $("#cards-inputs").classList.toggle("hidden", m !== "cards");
  $("#compare-controls").classList.toggle("hidden", m !== "compare");
  $("#combine-controls").classList.toggle("hidden", m !== "combine");
  if (m !== "cards") $("#cardview").innerHTML = "";
  // Combine opens with the current attack as its first.
  if (m === "combine" && !S.attacks.length) { S.attacks.push(state().toString()); drawAttacks(); }
}

async function main() {
  const spec = await api("/api/params");
  S.params = spec.params;
  STYLES = spec.chart_styles;
  for (const p of S.params) S.byName[p.name] = p;
  S.hasDb = spec.cards;
  if (S.hasDb) $("#tab-cards").classList.remove("hidden");
  buildForm(spec.choices);
  document.querySelectorAll("#tabs button").forEach((b) => b.addEventListener("click", () => setMode(b.dataset.mode)));
  $("#add-setup").addEventListener("click", () => { S.setups.push({ name: $("#setup-name").value || "setup " + (S.setups.length + 1), q: state().toString() }); $("#setup-name").value = ""; run(true); });
  $("#add-attack").addEventListener("click", () => { S.attacks.push(state().toString()); drawAttacks(); run(true); });
  $("#combine-how").addEventListener("change", () => run(true));
  $("#card-q").addEventListener("input", searchChanged);
  for (const id of ["#card-att", "#card-def", "#scenario-text", "#battle-text"]) $(id).addEventListener("input", changed);
  document.querySelectorAll("[data-export]").forEach((b) => b.addEventListener("click", async () => {
    let t;
    try { t = await exportText(b.dataset.export); } catch (e) { showError(e); return; }
    try { await navigator.clipboard.writeText(t); } catch (e) { /* no clipboard: kept below */ }
    // The last export, for a reader without a clipboard (and the tests).
    window.LAST_EXPORT = t;
  }));
  $("#svg-dl").addEventListener("click", () => {
    const svg = document.querySelector("#charts svg");
    if (!svg) return;
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([svg.outerHTML], { type: "image/svg+xml" }));
    a.download = "swtcg-odds.svg";
    a.click();
  });
  window.addEventListener("popstate", () => { loadPage(urlState()); run(false); });
  const first = urlState();
  if ("?" + first !== location.search) history.replaceState(null, "", "?" + first);
  loadPage(first);
  await run(false);
  // Milliseconds from the start of navigation to the first result drawn.
  window.FIRST_RESULT_MS = performance.now();
  document.body.dataset.ready = "1";
}
main().catch((e) => { $("#error").textContent = e.message; });
