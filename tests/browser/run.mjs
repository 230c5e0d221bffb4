// Browser tests of the web calculator, in headless Chromium (Debian's
// `chromium` package) driven by puppeteer-core, with axe-core
// (@axe-core/puppeteer) for accessibility. Run by tests/it/web.rs with the
// server's URL, the expected exact values (from the CLI) and where to save
// screenshots:
//
//   node tests/browser/run.mjs URL EXPECTED.json OUT_DIR
//
// Prints a JSON report; exits 1 on the first failed check. Screenshots of
// every mode at 390 x 844 and 1280 x 800 land in OUT_DIR (the ones in
// docs/screenshots/ are copies of them).
import puppeteer from "puppeteer-core";
import { AxePuppeteer } from "@axe-core/puppeteer";
import fs from "node:fs";

const [url, expectedFile, outDir] = process.argv.slice(2);
const expected = JSON.parse(fs.readFileSync(expectedFile, "utf8"));
const report = {};
const fail = (msg) => {
  console.log(JSON.stringify({ ...report, failed: msg }));
  process.exit(1);
};
const check = (ok, msg) => {
  if (!ok) fail(msg);
};

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  // The machine's network is closed: without the background-networking
  // switches Chromium keeps trying to reach Google's hosts.
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});

// The exact value a summary card holds (its `data-exact`), by its key.
const exactOf = (page, key) =>
  page.$eval(`#summary .card[data-key='${key}'] [data-exact]`, (el) => el.dataset.exact).catch(() => null);
const exactMean = (page) => exactOf(page, "mean");
const open = async (page, search) => {
  await page.goto(url + search, { waitUntil: "domcontentloaded" });
  await page.waitForSelector("body[data-ready='1']", { timeout: 10000 });
};
// What a person sees of an element: shown only when neither it nor an
// ancestor has display none, visibility hidden or opacity 0, and its box has
// an area; with its box and the screen's size. Null when there is none.
const seen = (page, sel) =>
  page.$eval(sel, (el) => {
    let shown = true;
    for (let e = el; e; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.display === "none" || cs.visibility === "hidden" || Number(cs.opacity) === 0) shown = false;
    }
    const r = el.getBoundingClientRect();
    return { shown: shown && r.width > 0 && r.height > 0, display: getComputedStyle(el).display, top: r.top, bottom: r.bottom, left: r.left, right: r.right, vh: innerHeight, vw: innerWidth, text: el.textContent.slice(0, 60) };
  }).catch(() => null);
// Seen, and wholly inside the first screen.
const inScreen = (b) => !!b && b.shown && b.top >= 0 && b.bottom <= b.vh && b.left >= 0 && b.right <= b.vw;
const settle = async (page) => {
  await new Promise((r) => setTimeout(r, 400));
  await page.waitForNetworkIdle({ idleTime: 150, timeout: 5000 });
};

try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  // Load: the first result, and how long it took.
  const t0 = Date.now();
  await page.goto(url, { waitUntil: "domcontentloaded" });
  await page.waitForSelector("body[data-ready='1']", { timeout: 10000 });
  report.first_result_ms = await page.evaluate(() => Math.round(window.FIRST_RESULT_MS));
  report.load_to_result_ms = Date.now() - t0;
  check((await exactMean(page)) === expected.default_mean, `default page: ${await exactMean(page)} != ${expected.default_mean}`);
  check(inScreen(await seen(page, "#summary .card[data-key='mean']")), `default page: the mean is not seen ${JSON.stringify(await seen(page, "#summary .card[data-key='mean']"))}`);

  // Grouped inputs: the popular calculator's eight first, in that order;
  // the other groups closed unless they hold a value (health is given).
  const popular = await page.$$eval("#popular [data-p]", (els) => els.map((e) => e.dataset.p));
  check(JSON.stringify(popular.sort()) === JSON.stringify(["accuracy", "armor", "crit", "fury", "lucky", "parry", "power", "shields"]), `popular inputs ${popular}`);
  const groups = await page.$$eval("details.group", (ds) => ds.map((d) => [d.id, d.open]));
  check(JSON.stringify(groups) === JSON.stringify([["g-attacker", false], ["g-defender", true], ["g-play", false]]), `groups ${JSON.stringify(groups)}`);
  check(await page.$eval("#g-play", (d) => ["lucky-policy", "lucky-order", "objective"].every((n) => d.querySelector(`[data-p='${n}']`))), "choices under How the players play");
  check(await page.$eval("#g-defender", (d) => d.querySelector("[data-p='health']") && d.querySelector("[data-p='counters']")), "health and counters with their side");

  // Set inputs as a user would.
  const type = async (name, value) => {
    const sel = `#f-${name}`;
    await page.click(sel, { clickCount: 3 });
    await page.keyboard.press("Backspace");
    await page.type(sel, String(value));
  };
  await type("power", 6);
  await type("crit", 2);
  await type("parry", 1);
  await type("health", 5);
  await settle(page);
  check((await exactMean(page)) === expected.mean, `typed attack: ${await exactMean(page)} != ${expected.mean}`);
  const pDiscard = await exactOf(page, "discard");
  check(pDiscard === expected.p_discard, `P(discard) ${pDiscard} != ${expected.p_discard}`);
  // The table's exact P(= 0), and P(>= 1) = 1 - P(= 0) exact on hover.
  const p0 = await page.$eval("#tables table tr:nth-child(2) td:nth-child(2) [data-exact]", (el) => el.dataset.exact);
  check(p0 === expected.p0, `P(damage = 0) ${p0} != ${expected.p0}`);
  const ge1 = await page.$eval("#tables table tr:nth-child(3) td:nth-child(4)", (td) => td.title);
  check(ge1 === expected.p_ge_1, `P(damage >= 1) ${ge1} != ${expected.p_ge_1}`);

  // Exact values on hover and tap: a tap on a point of the P(>= k) chart
  // says its exact value under the chart.
  const tapped = await page.evaluate(() => {
    const pt = document.querySelector("svg[data-kind='steps'] .pt[data-k='1']");
    pt.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    return [document.getElementById(pt.closest("svg").dataset.readout).textContent, pt.querySelector("title").textContent];
  });
  check(tapped[0].includes(`P(≥ 1) = ${expected.p_ge_1}`) && tapped[1].includes(expected.p_ge_1), `tap readout ${JSON.stringify(tapped)}`);
  const readout = await page.$eval("svg[data-kind='steps']", (s) => "#" + s.dataset.readout);
  check((await seen(page, readout))?.shown, `tap readout not seen ${JSON.stringify(await seen(page, readout))}`);
  // Axis titles.
  const axes = await page.$$eval("svg.chart", (svgs) => svgs.map((s) => [...s.querySelectorAll("text")].map((t) => t.textContent)));
  check(axes.length === 2 && axes.every((t) => t.includes("damage k")) && axes[0].includes("P(damage = k)") && axes[1].includes("P(damage ≥ k)"), `axis titles ${JSON.stringify(axes)}`);
  // P(= k) is scaled to the data: its top tick is the first nice value
  // above the largest probability, not 100%.
  const bars = await page.evaluate(() => {
    const svg = document.querySelector("svg[data-kind='bars']");
    const top = Math.max(...[...svg.querySelectorAll("line.grid")].map((l) => Number(l.dataset.prob)));
    const tallest = Math.min(...[...svg.querySelectorAll("rect[data-k]")].map((r) => Number(r.getAttribute("y"))));
    const yTop = Number(svg.querySelector(`line.grid[data-prob='${top}']`).getAttribute("y1"));
    return { top, tallest, yTop };
  });
  check(bars.top < 0.5 && bars.tallest >= bars.yTop, `P(= k) axis ${JSON.stringify(bars)}`);

  // The exports are the API's: Copy CSV gives what /api/attack?...&format=csv
  // answers for the attack shown, byte for byte.
  for (const kind of ["csv", "md"]) {
    await page.click(`button[data-export='${kind}']`);
    await page.waitForFunction((k) => window.LAST_EXPORT && window.LAST_EXPORT.startsWith(k === "csv" ? "distribution," : "| distribution"), {}, kind);
    const [shown, api] = await page.evaluate(async (k) => {
      const q = new URLSearchParams(location.search);
      q.set("format", k);
      return [window.LAST_EXPORT, await (await fetch("/api/attack?" + q)).text()];
    }, kind);
    check(shown === api, `${kind} export differs from the API's`);
    check(shown.includes(`damage to the defender,1,`) || kind === "md", `${kind} export: ${shown.slice(0, 200)}`);
    await page.evaluate(() => { window.LAST_EXPORT = undefined; });
  }

  // The URL holds the state: a new page from it shows the same result.
  const search = await page.evaluate(() => location.search);
  check(search.includes("power=6") && search.includes("crit=2"), `URL ${search}`);
  const page2 = await browser.newPage();
  await open(page2, search);
  check((await exactMean(page2)) === expected.mean, `round trip: ${await exactMean(page2)}`);
  // The web calculator's parameter names are read too.
  await open(page2, "?dice=6&critical=2&parry=1&health=5");
  check((await exactMean(page2)) === expected.mean, `web calculator's names: ${await exactMean(page2)}`);
  await page2.close();

  // The back button returns to the previous attack.
  await type("crit", 0);
  await settle(page);
  await page.goBack();
  await settle(page);
  const back = await page.$eval("#f-crit", (el) => el.value);
  check(back === "2", `back button: crit ${back}`);

  // Errors are shown beside their field, in a player's words (from the
  // API's typed kind and origin and the field's label): no flag, no code.
  for (const [name, bad, words, good] of [["power", -1, "Power must be at least 0", 6], ["health", 0, "Health must be at least 1", 5], ["crit", 100000, "Critical Hit can be at most 1000", 2]]) {
    await type(name, bad);
    await settle(page);
    const err = await page.$eval(`#e-${name}`, (el) => el.textContent);
    check(err === words, `error beside ${name}: '${err}' (want '${words}')`);
    check((await seen(page, `#e-${name}`))?.shown, `error beside ${name} not seen`);
    const marked = await page.$eval(`#f-${name}`, (el) => el.classList.contains("invalid"));
    check(marked, `${name} marked invalid`);
    await type(name, good);
    await settle(page);
  }

  // Compare: two setups, one chart, a difference column; the add and
  // remove controls sit with the results.
  await page.click("nav button[data-mode='compare']");
  await page.type("#setup-name", "crit 2");
  await page.click("#add-setup");
  await settle(page);
  await page.click("nav button[data-mode='attack']");
  await type("crit", 0);
  await type("power", 8);
  await settle(page);
  await page.click("nav button[data-mode='compare']");
  await page.type("#setup-name", "power 8");
  await page.click("#add-setup");
  await settle(page);
  const compareRows = () => page.$$eval("#compare-table tr", (trs) => trs.slice(1).map((tr) => [tr.cells[0].textContent, tr.cells[1].dataset.exact, tr.cells[3].textContent]));
  const rows = await compareRows();
  check(rows.length === 2, `compare rows ${rows.length}`);
  check(rows[0][1] === expected.mean && rows[1][1] === expected.power8_mean, `compare values ${JSON.stringify(rows)}`);
  check(rows[1][2].startsWith("+") || rows[1][2].startsWith("-"), `difference column ${rows[1][2]}`);
  check((await seen(page, "#results #add-setup"))?.shown, "add control beside the results");
  // Overlays told apart without colour: each series its own dash pattern
  // and marker shape.
  const looks = await page.$$eval("svg[data-kind='steps'] path.step", (ps) => ps.map((p) => p.getAttribute("stroke-dasharray") + "|" + p.nextElementSibling.tagName));
  check(looks.length === 2 && looks[0] !== looks[1], `compare overlays ${JSON.stringify(looks)}`);
  report.compare = rows;
  const compareSearch = await page.evaluate(() => location.search);
  check(compareSearch.includes("mode=compare") && compareSearch.includes("setup="), `compare URL ${compareSearch}`);
  {
    const p = await browser.newPage();
    await open(p, compareSearch);
    const again = await p.$$eval("#compare-table tr", (trs) => trs.slice(1).map((tr) => [tr.cells[0].textContent, tr.cells[1].dataset.exact, tr.cells[3].textContent]));
    check(JSON.stringify(again) === JSON.stringify(rows), `compare round trip ${JSON.stringify(again)}`);
    await p.close();
  }
  // Remove beside its row.
  await page.click("#compare-table button[data-del='1']");
  await settle(page);
  check((await compareRows()).length === 1, "remove a setup");

  // Numbers that fit: a combination of attacks has long fractions; the
  // card shows them shortened, whole on hover, tap and export.
  await page.click("nav button[data-mode='attack']");
  await type("power", 9);
  await type("crit", 3);
  await settle(page);
  await page.click("nav button[data-mode='combine']");
  for (let i = 0; i < 3; i++) await page.click("#add-attack");
  await page.select("#combine-how", "plan");
  await settle(page);
  const fit = await page.$eval("#summary .card[data-key='discard']", (c) => {
    const ex = c.querySelector(".exact");
    return { shown: ex.textContent, exact: ex.dataset.exact, title: ex.title, fits: c.scrollWidth <= c.clientWidth + 1 };
  });
  check(fit.exact.length > 24 && fit.shown.length < fit.exact.length && fit.title === fit.exact && fit.fits, `long fraction ${JSON.stringify(fit)}`);
  check((await seen(page, "#summary .card[data-key='discard'] .exact"))?.shown, "the long fraction is not seen");
  await page.click("#summary .card[data-key='discard'] .exact");
  check((await page.$eval("#summary .card[data-key='discard'] .exact", (e) => e.textContent)) === fit.exact, "a tap shows the whole fraction");
  check(await page.$eval("#summary .card[data-key='discard']", (c) => c.scrollWidth <= c.clientWidth + 1), "the whole fraction wraps inside its card");
  await page.click("button[data-export='json']");
  await page.waitForFunction(() => window.LAST_EXPORT);
  check(JSON.parse(await page.evaluate(() => window.LAST_EXPORT)).discarded === fit.exact, "the export holds the whole fraction");
  report.combine_discard_digits = fit.exact.length;

  // The card picker: results as you type, buttons on each card.
  if (expected.card) {
    await page.click("nav button[data-mode='cards']");
    await page.type("#card-q", expected.card.search);
    await page.waitForSelector("#card-list .hit");
    await page.click("#card-list .hit [data-pick='att']");
    const hits = await page.$$("#card-list .hit");
    await (await hits[Math.min(1, hits.length - 1)].$("[data-pick='def']")).click();
    await settle(page);
    await page.$eval("#card-att", (el, v) => { el.value = v; el.dispatchEvent(new Event("input")); }, expected.card.attacker);
    await page.$eval("#card-def", (el, v) => { el.value = v; el.dispatchEvent(new Event("input")); }, expected.card.defender);
    await settle(page);
    const cm = await exactMean(page);
    check(cm === expected.card.mean, `card attack ${cm} != ${expected.card.mean}`);
    // A stack built from the card's button.
    await page.click("#card-list .hit [data-pick='att+']");
    await settle(page);
    const stacked = await page.$eval("#card-att", (el) => el.value);
    check(stacked.includes(" + "), `stack built by a button: '${stacked}'`);
    // Typing in the search box right after changing a card does not
    // cancel the pending result: each has its own debounce timer.
    await page.$eval("#card-att", (el, v) => { el.value = v; el.dispatchEvent(new Event("input")); }, expected.card.attacker);
    await page.type("#card-q", "a");
    await settle(page);
    check((await exactMean(page)) === expected.card.mean, `a search while a result is pending: ${await exactMean(page)}`);
    // A link with two cards shows both cards' text and stats, and each
    // ability's class and whether it applied, before any click.
    const link = await page.evaluate(() => location.search);
    const p = await browser.newPage();
    await open(p, link);
    check((await exactMean(p)) === expected.card.mean, `cards round trip ${await exactMean(p)} (${link})`);
    await p.waitForSelector("#cardview article");
    for (const name of [expected.card.attacker, expected.card.defender]) {
      const [shown, db] = await p.evaluate(async (n) => {
        const el = [...document.querySelectorAll("#cardview article")].find((a) => a.dataset.card === n);
        const c = (await (await fetch("/api/cards?q=" + encodeURIComponent(n))).json()).find((c) => c.name === n);
        return [el ? { text: el.querySelector(".text").textContent, stats: el.querySelector(".stats").textContent, classes: el.querySelectorAll(".cls").length, status: el.querySelectorAll(".status").length } : null, c];
      }, name);
      check(shown && shown.text === db.text, `card text of ${name}: ${JSON.stringify(shown)}`);
      check((await seen(p, `#cardview article[data-card="${name}"] .text`))?.shown, `card text of ${name} not seen`);
      check(shown.stats.includes(`power ${db.power}`) && shown.stats.includes(`health ${db.health}`), `card stats of ${name}: ${shown.stats}`);
      check(shown.classes === db.abilities.length && shown.status === db.abilities.length, `abilities of ${name}: ${JSON.stringify(shown)}`);
    }
    const applied = await p.$$eval("#cardview .status.on", (els) => els.map((e) => e.textContent));
    check(applied.some((t) => t.includes("applied")), `applied abilities ${JSON.stringify(applied)}`);
    await p.close();
    report.card_mean = cm;
  }

  // A card pair with a condition the cards can't decide: the page shows
  // both cards, the condition's switch, and the CLI's value with the
  // switch off, then (flipped) with it on. Each ability says what it did
  // for its own side: the defender's Foresight takes no part.
  if (expected.waiting) {
    const w = expected.waiting;
    const p = await browser.newPage();
    await open(p, "?" + new URLSearchParams({ mode: "cards", attacker: w.attacker, defender: w.defender }));
    await settle(p);
    const err = await p.$eval("#error", (e) => e.textContent);
    check(err === "", `waiting pair: error ${err}`);
    check((await exactMean(p)) === w.off, `waiting pair, off: ${await exactMean(p)} != ${w.off}`);
    const sw = `#cardview article[data-card="${w.card}"] input[data-cond]`;
    const box = await seen(p, sw);
    check(box && box.shown, `waiting pair: the condition's switch is not seen ${JSON.stringify(box)}`);
    check((await p.$eval(sw, (c) => c.dataset.cond)) === w.text, "waiting pair: the switch is the condition's");
    await p.click(sw);
    await settle(p);
    check((await exactMean(p)) === w.on, `waiting pair, on: ${await exactMean(p)} != ${w.on}`);
    check(await p.$eval(sw, (c) => c.checked), "waiting pair: the switch stays on");
    check((await p.evaluate(() => location.search)).includes("condition="), "waiting pair: the condition is in the URL");
    const statuses = await p.$$eval("#cardview article", (as) => as.map((a) => [a.dataset.card, [...a.querySelectorAll(".ability")].map((x) => x.textContent)]));
    const def = statuses.find(([n]) => n === w.defender);
    const foresight = def && def[1].find((t) => t.startsWith("keywordForesight"));
    check(foresight && foresight.includes("no part when its unit is defending"), `defender's Foresight: ${JSON.stringify(def)}`);
    await p.close();
    report.waiting = [w.off, w.on];
  }

  // A search that finds nothing shows the nearest names, each a search.
  if (expected.card) {
    const p = await browser.newPage();
    await open(p, "?mode=cards");
    await p.type("#card-q", "beygor");
    await p.waitForSelector("#no-card [data-near]", { timeout: 5000 }).catch(() => null);
    const near = await seen(p, "#no-card [data-near]");
    check(near && near.shown && near.text.startsWith("Beyghor"), `search typo: nearest names not seen ${JSON.stringify(near)}`);
    await p.click("#no-card [data-near]");
    await p.waitForSelector("#card-list .hit [data-pick]", { timeout: 5000 }).catch(() => null);
    const hit = await seen(p, "#card-list .hit b");
    check(hit && hit.shown && hit.text.startsWith("Beyghor"), `search typo: a nearest name's search ${JSON.stringify(hit)}`);
    await p.close();
  }

  // Compare and Combine opened from a bare link start with the default
  // attack filled in and a result, no error.
  for (const mode of ["compare", "combine"]) {
    const p = await browser.newPage();
    await open(p, `?mode=${mode}`);
    await settle(p);
    const err = await p.$eval("#error", (e) => e.textContent);
    const errs = await p.$$eval(".err", (es) => es.map((e) => e.textContent).filter((t) => t));
    check(err === "" && errs.length === 0, `${mode} opened bare: errors ${err} ${JSON.stringify(errs)}`);
    check((await p.$eval("#f-power", (e) => e.value)) === "5", `${mode} opened bare: the form is empty`);
    const value = mode === "compare"
      ? await p.$eval("#compare-table tr:nth-child(2) td:nth-child(2)", (td) => td.dataset.exact).catch(() => null)
      : await exactMean(p);
    check(value === expected.default_mean, `${mode} opened bare: ${value} != ${expected.default_mean}`);
    await p.close();
  }

  // A scenario of several units, typed as a scenario file's JSON.
  await page.click("nav button[data-mode='scenario']");
  await page.$eval("#scenario-text", (el, v) => { el.value = v; el.dispatchEvent(new Event("input")); }, expected.scenario.text);
  await settle(page);
  const sm = await exactMean(page);
  check(sm === expected.scenario.mean, `scenario ${sm} != ${expected.scenario.mean}`);
  const units = await page.$$eval("#units-table tr", (trs) => trs.slice(1).map((tr) => tr.cells[0].textContent));
  check(units.length === expected.scenario.units, `scenario units ${JSON.stringify(units)}`);
  const scenarioUrl = await page.evaluate(() => location.search);
  check(scenarioUrl.includes("mode=scenario") && scenarioUrl.includes("scenario="), `scenario URL ${scenarioUrl}`);
  report.scenario_mean = sm;

  // A battle: the control of the arena and the best first attack come
  // first, seen, with the command line's exact values.
  await page.click("nav button[data-mode='battle']");
  await page.$eval("#battle-text", (el, v) => { el.value = v; el.dispatchEvent(new Event("input")); }, expected.battle.text);
  await settle(page);
  for (const side of ["dark", "light"]) {
    const v = await exactOf(page, `control-Character-${side}`);
    check(v === expected.battle[side], `battle: P(${side} controls) ${v} != ${expected.battle[side]}`);
    const box = await seen(page, `#summary .card[data-key='control-Character-${side}']`);
    check(inScreen(box), `battle: P(${side} controls) is not seen: ${JSON.stringify(box)}`);
  }
  const best = await seen(page, "#summary .card[data-key='first'] b");
  check(inScreen(best) && best.text === expected.battle.best, `battle: best first attack ${JSON.stringify(best)} != ${expected.battle.best}`);
  const options = await page.$$eval("#first-table tr", (trs) => trs.slice(1).map((tr) => tr.cells[2].dataset.exact));
  check(JSON.stringify(options) === JSON.stringify(expected.battle.options), `battle: first options ${JSON.stringify(options)}`);
  const battleUrl = await page.evaluate(() => location.search);
  check(battleUrl.includes("mode=battle") && battleUrl.includes("battle="), `battle URL ${battleUrl}`);
  report.battle_best = best.text;
  await page.click("nav button[data-mode='scenario']");
  await settle(page);

  // Honest charts: the P(>= k) chart's drawn value at each integer k,
  // read back from the SVG's geometry (the step path's height above the
  // 0% line, over the 0%-100% span), equals the exact tail, on a
  // distribution with gaps (P(= k) = 0 between outcomes): Critical Hit 4
  // on two dice against a defender that can't be discarded.
  const gapText = JSON.stringify({ attacker: { name: "A", power: 2, keywords: ["Critical Hit 4"] }, defender: { name: "D", power: 1, health: 9 } });
  await page.$eval("#scenario-text", (el, v) => { el.value = v; el.dispatchEvent(new Event("input")); }, gapText);
  await settle(page);
  const geometry = await page.evaluate(async (text) => {
    const svg = document.querySelector("svg[data-kind='steps']");
    const y0 = Number(svg.querySelector("line.grid[data-prob='0']").getAttribute("y1"));
    const y1 = Number(svg.querySelector("line.grid[data-prob='1']").getAttribute("y1"));
    // The path: M x y, then H x and V y commands.
    const d = svg.querySelector("path.step").getAttribute("d");
    const segs = [];
    let x = 0, y = 0;
    for (const [, c, v] of d.matchAll(/([MHV])([-\d.]+(?: [-\d.]+)?)/g)) {
      const n = v.split(" ").map(Number);
      if (c === "M") { x = n[0]; y = n[1]; }
      else if (c === "H") { segs.push([x, n[0], y]); x = n[0]; }
      else y = n[0];
    }
    const drawn = [...svg.querySelectorAll("text.tick")].map((t) => {
      const tx = Number(t.getAttribute("x"));
      const s = segs.find(([a, b]) => a <= tx && tx <= b);
      return [Number(t.dataset.k), s ? (y0 - s[2]) / (y0 - y1) : null];
    });
    // The exact law, from the API, summed here with BigInt fractions.
    const j = await (await fetch("/api/scenario", { method: "POST", headers: { "content-type": "application/json" }, body: text })).json();
    const pmf = Object.entries(j.defender_damage.pmf).map(([k, f]) => [Number(k), f.split("/").map(BigInt)]);
    const tail = (k) => {
      let n = 0n, d = 1n;
      for (const [kk, [a, b]] of pmf) if (kk >= k) { n = n * b + a * d; d = d * b; }
      return Number((n * 10n ** 12n) / d) / 1e12;
    };
    const gaps = [];
    const ks = pmf.map(([k]) => k);
    for (let k = 0; k <= Math.max(...ks); k++) if (!ks.includes(k)) gaps.push(k);
    return { drawn: drawn.map(([k, v]) => [k, v, tail(k)]), gaps };
  }, gapText);
  // Back to the scenario of the example, for the links below.
  await page.$eval("#scenario-text", (el, v) => { el.value = v; el.dispatchEvent(new Event("input")); }, expected.scenario.text);
  await settle(page);
  check(geometry.gaps.length > 0, `the scenario's distribution has gaps: ${JSON.stringify(geometry.gaps)}`);
  for (const [k, drawn, exact] of geometry.drawn) check(drawn !== null && Math.abs(drawn - exact) < 1e-4, `P(>= ${k}) drawn ${drawn}, exact ${exact}`);
  report.steps_checked = geometry.drawn.length;

  // Every mode at a phone's and a laptop's size: the first result lies in
  // the first screen, nothing is wider than the screen, axe-core finds no
  // serious or critical violation; a screenshot of each.
  const links = {
    attack: "?power=6&crit=2&parry=1&health=5",
    compare: compareSearch,
    combine: await page.evaluate(() => { const q = new URLSearchParams(location.search); q.set("mode", "combine"); return "?" + q; }),
    scenario: scenarioUrl,
    battle: battleUrl,
  };
  if (expected.card) links.cards = "?" + new URLSearchParams({ mode: "cards", attacker: expected.card.attacker, defender: expected.card.defender });
  const view = await browser.newPage();
  report.axe = {};
  for (const [w, h] of [[390, 844], [1280, 800]]) {
    await view.setViewport({ width: w, height: h });
    for (const [mode, link] of Object.entries(links)) {
      await open(view, link);
      await settle(view);
      const box = await seen(view, "#summary > *");
      check(inScreen(box), `${mode} at ${w}: the first result ${JSON.stringify(box)} is not seen in the first screen`);
      check(!(await seen(view, "#error"))?.shown || (await view.$eval("#error", (e) => e.textContent.trim() === "")), `${mode} at ${w}: an error on opening: ${await view.$eval("#error", (e) => e.textContent)}`);
      if (mode !== "compare" && mode !== "battle") {
        const chart = await seen(view, "#charts svg");
        check(chart && chart.shown && chart.top < chart.vh, `${mode} at ${w}: the chart is not seen in the first screen (${JSON.stringify(chart)})`);
      }
      const wide = await view.evaluate(() => {
        const vw = document.documentElement.clientWidth;
        const over = [...document.querySelectorAll("body *")].filter((el) => el.getBoundingClientRect().width > vw + 1 && el.offsetParent !== null).map((el) => el.tagName + "#" + el.id + "." + el.className);
        return { page: document.documentElement.scrollWidth - vw, over };
      });
      check(wide.page <= 1 && wide.over.length === 0, `${mode} at ${w}: wider than the screen ${JSON.stringify(wide)}`);
      await view.screenshot({ path: `${outDir}/${mode}-${w}.png` });
      // Open every group, so axe sees every input.
      await view.evaluate(() => document.querySelectorAll("details.group").forEach((d) => (d.open = true)));
      const axe = await new AxePuppeteer(view).analyze();
      const bad = axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      check(bad.length === 0, `${mode} at ${w}: axe: ${JSON.stringify(bad.map((v) => [v.id, v.impact, v.nodes.slice(0, 3).map((n) => n.target)]))}`);
      report.axe[`${mode}-${w}`] = axe.violations.map((v) => `${v.id} (${v.impact})`);
    }
  }
  // On a phone the results come first and the inputs follow, with the
  // answer in a sticky bar while editing.
  await view.setViewport({ width: 390, height: 844 });
  await open(view, links.attack);
  const order = await view.evaluate(() => document.querySelector("#results").getBoundingClientRect().top < document.querySelector("#inputs").getBoundingClientRect().top);
  check(order, "phone: results before inputs");
  await view.evaluate(() => document.querySelector("#f-power").scrollIntoView());
  await view.click("#f-power", { clickCount: 3 });
  await view.type("#f-power", "7");
  await settle(view);
  const bar = await seen(view, "#bar");
  check(inScreen(bar) && bar.display !== "none" && bar.text.startsWith("E[damage]"), `phone: sticky summary bar ${JSON.stringify(bar)}`);
  // ... and only on a phone: on a laptop's screen the bar is not shown.
  await view.setViewport({ width: 1280, height: 800 });
  check(!(await seen(view, "#bar")).shown, "laptop: the phone's bar is shown");
  await view.close();
  report.ok = true;
  console.log(JSON.stringify(report));
} finally {
  await browser.close();
}
