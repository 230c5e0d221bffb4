"use strict";
const $ = (s) => document.querySelector(s);
// The page's whole state, in one object. `last` is the request behind the
// result shown (its path and body, for the exports) and its JSON; `seq`
// numbers the requests so a late answer never overwrites a newer one; the
// recompute and the card search each have their own debounce timer, so
// typing in one never cancels the other.
const S = {
  params: [],
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
const CHOICES = [
  ["lucky-policy", ["", "optimal", "simple"], "How Lucky is played"],
  ["lucky-order", ["", "pop", "pop-defender-first", "attacker-first", "defender-first"], "How the two Lucky take turns"],
  ["objective", ["", "damage", "discard", "net"], "What each side plays for"],
];

// A float for display of an exact "n/d" of any size (denominators reach 6^1000).
function frac(s) {
  try { const [n, d] = bigFrac(s); return d ? Number((n * 10n ** 18n) / d) / 1e18 : NaN; } catch (e) { return NaN; }
}
function pct(s) { return (100 * frac(s)).toFixed(2) + "%"; }
function esc(t) { return String(t).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]); }

function field(p) {
  const row = document.createElement("div");
  row.className = "row";
  const id = "f-" + p.name;
  let input;
  if (p.kind === "switch") {
    input = `<input type="checkbox" id="${id}" data-p="${p.name}">`;
  } else {
    input = `<input type="number" id="${id}" data-p="${p.name}" ${p.kind === "signed" ? "" : "min=0"} step=1 inputmode="numeric">`;
  }
  row.innerHTML = `<label for="${id}" title="${esc(p.doc)}">${esc(p.label)}</label>${input}<span class="err" id="e-${p.name}"></span>`;
  return row;
}

function buildForm() {
  for (const p of S.params) $("#" + (p.side === "attacker" ? "attacker" : "defender")).appendChild(field(p));
  const ch = $("#choices");
  for (const [name, opts, doc] of CHOICES) {
    const row = document.createElement("div");
    row.className = "row";
    row.innerHTML = `<label for="f-${name}" title="${doc}">${name}</label><select id="f-${name}" data-p="${name}">${opts.map((o) => `<option value="${o}">${o || "(default)"}</option>`).join("")}</select><span class="err" id="e-${name}"></span>`;
    ch.appendChild(row);
  }
  for (const [name, doc] of [["force-attacker", "Force the attacker may spend"], ["force-defender", "Force the defender may spend"], ["other-health", "A third unit on the defender's side (health)"]]) {
    const row = document.createElement("div");
    row.className = "row";
    row.innerHTML = `<label for="f-${name}" title="${doc}">${name}</label><input type="number" min=0 id="f-${name}" data-p="${name}"><span class="err" id="e-${name}"></span>`;
    ch.appendChild(row);
  }
  const ok = document.createElement("div");
  ok.className = "row";
  ok.innerHTML = `<label for="f-overkill">overkill</label><input type="checkbox" id="f-overkill" data-p="overkill"><span class="err" id="e-overkill"></span>`;
  ch.appendChild(ok);
  document.querySelectorAll("[data-p]").forEach((el) => el.addEventListener("input", changed));
}

function state() {
  const q = new URLSearchParams();
  document.querySelectorAll("[data-p]").forEach((el) => {
    if (el.type === "checkbox") { if (el.checked) q.set(el.dataset.p, "true"); }
    else if (el.value !== "") q.set(el.dataset.p, el.value);
  });
  return q;
}

function load(q) {
  document.querySelectorAll("[data-p]").forEach((el) => {
    const v = q.get(el.dataset.p);
    if (el.type === "checkbox") el.checked = v === "true" || v === "on" || v === "1";
    else el.value = v === null ? "" : v;
  });
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
  $("#card-att").value = q.get("attacker") || "";
  $("#card-def").value = q.get("defender") || "";
  S.conditions = new Set(q.getAll("condition"));
  drawSetups();
  drawAttacks();
  showMode(["compare", "combine", "cards", "scenario"].includes(q.get("mode")) && (q.get("mode") !== "cards" || S.hasDb) ? q.get("mode") : "attack");
}

function urlState() {
  const q = new URLSearchParams(location.search);
  for (const [a, b] of Object.entries(ALIASES)) if (q.has(a) && !q.has(b)) { q.set(b, q.get(a)); q.delete(a); }
  if (q.get("armor") === "1") q.set("armor", "true");
  return q;
}

function changed() { clearTimeout(S.timers.run); S.timers.run = setTimeout(() => run(true), 150); }
function searchChanged() { clearTimeout(S.timers.search); S.timers.search = setTimeout(searchCards, 150); }

function clearErrors() {
  $("#error").textContent = "";
  document.querySelectorAll(".err").forEach((e) => (e.textContent = ""));
  document.querySelectorAll(".invalid").forEach((e) => e.classList.remove("invalid"));
}

function showError(e) {
  // The API says which field an error is about (its typed origin): the
  // message goes beside that field, in the API's words.
  const param = e.origin && e.origin.param;
  const el = param && document.getElementById("e-" + param);
  if (el) {
    el.textContent = e.message;
    const input = document.getElementById("f-" + param);
    if (input) input.classList.add("invalid");
  } else $("#error").textContent = e.message;
}

// One request to the API: a GET, or a POST of `body` as JSON. The answer
// is JSON, or text when `text` is set (the exports); an error answer is
// thrown with its typed kind and origin.
async function fetchApi(path, body, text) {
  const r = await fetch(path, body ? { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) } : {});
  if (!r.ok) {
    const j = await r.json();
    const e = new Error(j.error || r.statusText);
    e.origin = j.origin;
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

// Each mode: the request it makes (null when it lacks input, with a hint)
// and the function that draws its answer.
const MODES = {
  attack: { request: attackRequest, render: renderAttack },
  compare: { request: compareRequest, render: renderCompare },
  combine: { request: combineRequest, render: renderCombine },
  scenario: { request: scenarioRequest, render: renderScenario },
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
    if (typeof req === "string") { S.last = null; $("#summary").innerHTML = `<div class=card>${esc(req)}</div>`; $("#charts").innerHTML = ""; $("#tables").innerHTML = ""; return; }
    const result = await req;
    if (my !== S.seq) return;
    S.last = result;
    mode.render(result.json);
  } catch (e) {
    if (my === S.seq) showError(e);
  }
}

function attackRequest() {
  const q = state();
  if (!q.has("power")) return "Give the attacker's power.";
  return solve("/api/attack?" + q.toString());
}

function dists(j) {
  const out = [["Damage to the defender", j.defender_damage]];
  if (j.attacker_damage && Object.keys(j.attacker_damage.pmf).some((k) => k !== "0")) out.push(["Damage to the attacker", j.attacker_damage]);
  out.push(["Hits of the final roll", j.hits]);
  return out;
}

function card(title, value, sub) { return `<div class="card"><span>${esc(title)}</span><b data-value="${esc(value)}">${esc(value)}</b><span>${esc(sub || "")}</span></div>`; }

function renderAttack(j) {
  const s = [];
  s.push(card("E[damage] to the defender", frac(j.defender_damage.mean).toFixed(4), j.defender_damage.mean));
  if (j.defender_discarded) s.push(card("P(defender discarded)", pct(j.defender_discarded), j.defender_discarded));
  s.push(card("E[damage] to the attacker", frac(j.attacker_damage.mean).toFixed(4), j.attacker_damage.mean));
  if (j.attacker_discarded) s.push(card("P(attacker discarded)", pct(j.attacker_discarded), j.attacker_discarded));
  const q = state();
  // Stun shows only when some unit has it: in the attack form when it is
  // given, in a scenario when its text names it.
  const stun = (flag) => (S.mode === "attack" ? q.get(flag) : S.mode === "scenario" && /stun/i.test($("#scenario-text").value));
  if (stun("stun")) s.push(card("P(attacker's Stun lands)", pct(j.attacker_stun_lands), j.attacker_stun_lands));
  if (stun("defender-stun")) s.push(card("P(defender's Stun lands)", pct(j.defender_stun_lands), j.defender_stun_lands));
  if (j.objective) s.push(card("Objective " + j.objective.name, Number(j.objective.value_f64).toFixed(4), j.objective.value));
  if (j.foresight) s.push(card("Foresight best guess", j.foresight.best_guess + " hits", j.foresight.probability));
  if (j.used) for (const [k, v] of Object.entries(j.used)) s.push(card("used: " + k, pct(v), v));
  $("#summary").innerHTML = s.join("");
  const ds = dists(j);
  $("#charts").innerHTML = chart("P(damage = k)", [["defender", j.defender_damage]], false) + chart("P(damage ≥ k)", ds.slice(0, -1).map(([t, d]) => [t.replace("Damage to the ", ""), d]), true);
  $("#tables").innerHTML = ds.map(([t, d]) => table(t, d)).join("");
}

// "n/d" as BigInts, for display of fractions of any size.
function bigFrac(f) { const [n, d] = String(f).split("/"); return [BigInt(n), BigInt(d || "1")]; }

// [k, exact P(>= k) as "n/d", its float], for each k with P(= k) > 0: the
// API sums the tail exactly (`at_least`); the float is only for display.
function tail(d) {
  return Object.keys(d.pmf).map(Number).sort((a, b) => a - b).map((k) => [k, d.at_least[k], frac(d.at_least[k])]);
}

function table(title, d) {
  const rows = tail(d).map(([k, exact, p]) => `<tr><td>${k}</td><td>${d.pmf[k]}</td><td>${pct(d.pmf[k])}</td><td title="${exact}">${(100 * p).toFixed(2)}%</td></tr>`);
  return `<h3>${esc(title)}</h3><table data-title="${esc(title)}"><tr><th>k</th><th>P(= k)</th><th>%</th><th>P(≥ k)</th></tr>${rows.join("")}</table><small>expected value ${d.mean} = ${frac(d.mean).toFixed(4)}</small>`;
}

const COLORS = ["#2457c5", "#c0392b", "#2f7d32", "#8a5a00", "#5a3e99", "#00838f"];
function chart(title, series, cumulative) {
  const W = 560, H = 220, L = 40, B = 26;
  const all = series.flatMap(([, d]) => Object.keys(d.pmf).map(Number));
  const kmax = Math.max(1, ...all);
  const x = (k) => L + (k + 0.5) * (W - L - 10) / (kmax + 1);
  const y = (p) => H - B - p * (H - B - 12);
  let g = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(title)}" class="chart" data-title="${esc(title)}"><text x="${L + 40}" y="12" font-size="12">${esc(title)}</text>`;
  for (const p of [0, 0.5, 1]) g += `<line x1="${L}" x2="${W - 10}" y1="${y(p)}" y2="${y(p)}" stroke="#eee"/><text x="4" y="${y(p) + 4}" font-size="10">${p * 100}%</text>`;
  for (let k = 0; k <= kmax; k++) g += `<text x="${x(k) - 3}" y="${H - 8}" font-size="10">${k}</text>`;
  series.forEach(([name, d], i) => {
    const c = COLORS[i % COLORS.length];
    if (cumulative) {
      const pts = tail(d);
      g += `<polyline fill="none" stroke="${c}" stroke-width="2" points="${pts.map(([k, , p]) => `${x(k)},${y(p)}`).join(" ")}"/>`;
      for (const [k, exact, p] of pts) g += `<circle cx="${x(k)}" cy="${y(p)}" r="4" fill="${c}"><title>${esc(name)}: P(≥ ${k}) = ${exact} (${(100 * p).toFixed(2)}%)</title></circle>`;
    } else {
      const bw = (W - L - 10) / (kmax + 1) / (series.length + 0.5);
      for (const [k, f] of Object.entries(d.pmf)) {
        const p = frac(f);
        g += `<rect x="${x(Number(k)) - bw * series.length / 2 + i * bw}" y="${y(p)}" width="${bw}" height="${H - B - y(p)}" fill="${c}"><title>${esc(name)}: P(= ${k}) = ${f} (${pct(f)})</title></rect>`;
      }
    }
    g += `<text x="${W - 150}" y="${24 + 14 * i}" font-size="11" fill="${c}">${esc(name)}</text>`;
  });
  return g + "</svg>";
}

function compareList() { return S.setups.length ? S.setups : [{ name: "current", q: state().toString() }]; }

async function compareRequest() {
  const parts = [];
  for (const s of compareList()) parts.push({ name: s.name, path: "/api/attack?" + s.q, result: await api("/api/attack?" + s.q) });
  return { parts, json: parts.map((p) => ({ name: p.name, result: p.result })) };
}

function renderCompare(json) {
  const res = json.map((x) => [x.name, x.result]);
  const base = frac(res[0][1].defender_damage.mean);
  $("#summary").innerHTML = "";
  $("#tables").innerHTML = `<table id="compare-table"><tr><th>setup</th><th>E[damage]</th><th>exact</th><th>P(discard)</th><th>difference</th></tr>${res.map(([n, j]) => {
    const m = frac(j.defender_damage.mean);
    return `<tr><td>${esc(n)}</td><td>${m.toFixed(4)}</td><td>${j.defender_damage.mean}</td><td>${j.defender_discarded ? pct(j.defender_discarded) : "—"}</td><td>${(m - base >= 0 ? "+" : "") + (m - base).toFixed(4)}</td></tr>`;
  }).join("")}</table>`;
  $("#charts").innerHTML = chart("P(damage ≥ k), setups compared", res.map(([n, j]) => [n, j.defender_damage]), true);
}

function drawSetups() {
  $("#setups").innerHTML = S.setups.map((s, i) => `<div class="row"><span>${esc(s.name)}</span><small>${esc(s.q)}</small><button data-del="${i}">remove</button></div>`).join("");
  document.querySelectorAll("[data-del]").forEach((b) => b.addEventListener("click", () => { S.setups.splice(Number(b.dataset.del), 1); drawSetups(); run(true); }));
}

function combineRequest() {
  if (!S.attacks.length) return "Add attacks to combine.";
  const how = $("#combine-how").value;
  return solve("/api/combine", { how, attacks: S.attacks.map((a) => Object.fromEntries(new URLSearchParams(a))) });
}

function renderCombine(j) {
  $("#summary").innerHTML = card("E[total damage]", frac(j.total.mean).toFixed(4), j.total.mean) + (j.discarded ? card("P(defender discarded)", pct(j.discarded), j.discarded) : "");
  $("#charts").innerHTML = chart("P(total damage ≥ k)", [["total", j.total]], true);
  $("#tables").innerHTML = table("Total damage", j.total);
}

function drawAttacks() {
  $("#attacks").innerHTML = S.attacks.map((a, i) => `<div class="row"><span>${i + 1}.</span><small>${esc(a)}</small><button data-rm="${i}">remove</button></div>`).join("");
  document.querySelectorAll("[data-rm]").forEach((b) => b.addEventListener("click", () => { S.attacks.splice(Number(b.dataset.rm), 1); drawAttacks(); run(true); }));
}

// The scenario the tab opens with: a defender guarded by an interceptor.
const SCENARIO = JSON.stringify({
  attacker: { name: "Darth Vader", power: 6, health: 7, keywords: ["Critical Hit 2", "Pay 1 Force -> Deflect 1", "Lucky 1"] },
  defender: { name: "Luke Skywalker", power: 5, health: 5, keywords: ["Parry 1", "Pay 2 Force -> Evade 2", "Retaliate 2"] },
  others: [{ name: "Clone Guard", side: "defender", power: 3, health: 4, keywords: ["Pay 0 Force -> Intercept"] }],
  policy: { objective: "discard" },
}, null, 1);

function scenarioRequest() {
  let body;
  try { body = JSON.parse($("#scenario-text").value); } catch (e) { throw new Error("the scenario is not JSON: " + e.message); }
  return solve("/api/scenario", body);
}

function renderScenario(j) {
  renderAttack(j);
  const names = Object.keys(j.damage_by_unit || {});
  $("#tables").innerHTML = `<h3>Each unit</h3><table id="units-table"><tr><th>unit</th><th>E[damage]</th><th>exact</th><th>P(discarded)</th></tr>${names.map((n) => {
    const d = j.damage_by_unit[n], p = (j.discarded_by_unit || {})[n];
    return `<tr><td>${esc(n)}</td><td>${frac(d.mean).toFixed(4)}</td><td>${d.mean}</td><td>${p ? pct(p) : "—"}</td></tr>`;
  }).join("")}</table>` + $("#tables").innerHTML;
}
function cardsRequest() {
  const a = $("#card-att").value.trim(), d = $("#card-def").value.trim();
  if (!a || !d) return "Pick an attacker and a defender.";
  const q = new URLSearchParams({ attacker: a, defender: d });
  for (const c of S.conditions) q.append("condition", c);
  return solve("/api/cards/attack?" + q.toString());
}

function renderCards(j) {
  renderAttack(j);
  const applied = (j.applied || []).map((x) => `<div class="ability">✔ applied automatically: ${esc(x.card)}: ${esc(x.text)}</div>`);
  const waiting = (j.waiting || []).map((x) => `<div class="ability"><label><input type="checkbox" data-cond="${esc(x.text)}" ${S.conditions.has(x.text) ? "checked" : ""}> ${esc(x.card)}: ${esc(x.text)}</label></div>`);
  const on = [...S.conditions].map((c) => `<div class="ability"><label><input type="checkbox" data-cond="${esc(c)}" checked> switched on: ${esc(c)}</label></div>`);
  $("#conditions").innerHTML = applied.join("") + waiting.join("") + on.join("");
  document.querySelectorAll("[data-cond]").forEach((c) => c.addEventListener("change", () => { c.checked ? S.conditions.add(c.dataset.cond) : S.conditions.delete(c.dataset.cond); run(true); }));
}

async function searchCards() {
  const q = $("#card-q").value.trim();
  if (!q) { $("#card-list").innerHTML = ""; return; }
  try {
    const cards = await api("/api/cards?q=" + encodeURIComponent(q));
    $("#card-list").innerHTML = cards.slice(0, 50).map((c, i) => `<div data-i="${i}" title="${esc(c.text || "")}">${esc(c.name)} <small>${esc(c.set)} · ${esc(c.card_type)} · ${c.power ?? "*"}/${c.health ?? "*"}</small></div>`).join("");
    document.querySelectorAll("#card-list div").forEach((el) => el.addEventListener("click", (e) => {
      const c = cards[Number(el.dataset.i)];
      const how = e.shiftKey ? "def" : $("#pick-how").value;
      const field = $(how.startsWith("att") ? "#card-att" : "#card-def");
      const joint = how.endsWith("+") ? " + " : how.endsWith("@") ? " with " : null;
      field.value = joint && field.value.trim() ? field.value.trim() + joint + c.name : c.name;
      $("#card-abilities").innerHTML = `<b>${esc(c.name)}</b>` + (c.abilities || []).map((a) => `<div class="ability"><span class="cls ${a.class}">${a.class}</span>${esc(a.text)}</div>`).join("");
      S.conditions.clear();
      run(true);
    }));
  } catch (e) { showError(e); }
}

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
  document.querySelectorAll("#tabs button").forEach((b) => b.classList.toggle("on", b.dataset.mode === m));
  $("#attack-inputs").classList.toggle("hidden", m === "cards" || m === "scenario");
  $("#scenario-inputs").classList.toggle("hidden", m !== "scenario");
  $("#cards-inputs").classList.toggle("hidden", m !== "cards");
  $("#compare-inputs").classList.toggle("hidden", m !== "compare");
  $("#combine-inputs").classList.toggle("hidden", m !== "combine");
}

async function main() {
  const spec = await api("/api/params");
  S.params = spec.params;
  S.hasDb = spec.cards;
  if (S.hasDb) $("#tab-cards").classList.remove("hidden");
  buildForm();
  document.querySelectorAll("#tabs button").forEach((b) => b.addEventListener("click", () => setMode(b.dataset.mode)));
  $("#add-setup").addEventListener("click", () => { S.setups.push({ name: $("#setup-name").value || "setup " + (S.setups.length + 1), q: state().toString() }); $("#setup-name").value = ""; drawSetups(); run(true); });
  $("#add-attack").addEventListener("click", () => { S.attacks.push(state().toString()); drawAttacks(); run(true); });
  $("#combine-how").addEventListener("change", () => run(true));
  $("#card-q").addEventListener("input", searchChanged);
  for (const id of ["#card-att", "#card-def", "#scenario-text"]) $(id).addEventListener("input", changed);
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
  if (!location.search) history.replaceState(null, "", "?power=5&crit=1&parry=1&health=4");
  loadPage(urlState());
  await run(false);
  // Milliseconds from the start of navigation to the first result drawn.
  window.FIRST_RESULT_MS = performance.now();
  document.body.dataset.ready = "1";
}
main().catch((e) => { $("#error").textContent = e.message; });
