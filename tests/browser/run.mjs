// Browser tests of the web calculator, in headless Chromium (Debian's
// `chromium` package) driven by puppeteer-core. Run by
// tests/it/browser.rs with the server's URL, the expected exact values
// (from the CLI) and where to save screenshots:
//
//   node tests/browser/run.mjs URL EXPECTED.json OUT_DIR
//
// Prints a JSON report; exits 1 on the first failed check.
import puppeteer from "puppeteer-core";
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
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  // Load: the first result, and how long it took.
  const t0 = Date.now();
  await page.goto(url, { waitUntil: "domcontentloaded" });
  await page.waitForSelector("body[data-ready='1']", { timeout: 10000 });
  report.first_result_ms = await page.evaluate(() => Math.round(window.FIRST_RESULT_MS));
  report.load_to_result_ms = Date.now() - t0;
  const exactMean = async () =>
    page.$$eval(".card", (cards) => {
      const c = cards.find((c) => c.textContent.startsWith("E[damage] to the defender"));
      return c ? c.querySelectorAll("span")[1].textContent : null;
    });
  check((await exactMean()) === expected.default_mean, `default page: ${await exactMean()} != ${expected.default_mean}`);

  // Set inputs as a user would.
  const type = async (name, value) => {
    const sel = `#f-${name}`;
    await page.click(sel, { clickCount: 3 });
    await page.keyboard.press("Backspace");
    await page.type(sel, String(value));
  };
  const settle = async () => {
    await new Promise((r) => setTimeout(r, 400));
    await page.waitForNetworkIdle({ idleTime: 150, timeout: 5000 });
  };
  await type("power", 6);
  await type("crit", 2);
  await type("parry", 1);
  await type("health", 5);
  await settle();
  check((await exactMean()) === expected.mean, `typed attack: ${await exactMean()} != ${expected.mean}`);
  const pDiscard = await page.$$eval(".card", (cards) => {
    const c = cards.find((c) => c.textContent.startsWith("P(defender discarded)"));
    return c ? c.querySelectorAll("span")[1].textContent : null;
  });
  check(pDiscard === expected.p_discard, `P(discard) ${pDiscard} != ${expected.p_discard}`);
  // The table's exact P(= 0).
  const p0 = await page.$eval("#tables table tr:nth-child(2) td:nth-child(2)", (td) => td.textContent);
  check(p0 === expected.p0, `P(damage = 0) ${p0} != ${expected.p0}`);
  // P(damage >= 1), exact on hover, is 1 - P(damage = 0).
  const ge1 = await page.$eval("#tables table tr:nth-child(3) td:nth-child(4)", (td) => td.title);
  check(ge1 === expected.p_ge_1, `P(damage >= 1) ${ge1} != ${expected.p_ge_1}`);
  await page.screenshot({ path: `${outDir}/page-1280.png`, fullPage: true });

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
  await page2.goto(url + search, { waitUntil: "domcontentloaded" });
  await page2.waitForSelector("body[data-ready='1']");
  const mean2 = await page2.$$eval(".card", (cards) => cards.find((c) => c.textContent.startsWith("E[damage] to the defender")).querySelectorAll("span")[1].textContent);
  check(mean2 === expected.mean, `round trip: ${mean2}`);
  // The web calculator's parameter names are read too.
  await page2.goto(url + "?dice=6&critical=2&parry=1&health=5", { waitUntil: "domcontentloaded" });
  await page2.waitForSelector("body[data-ready='1']");
  const mean3 = await page2.$$eval(".card", (cards) => cards.find((c) => c.textContent.startsWith("E[damage] to the defender")).querySelectorAll("span")[1].textContent);
  check(mean3 === expected.mean, `web calculator's names: ${mean3}`);
  await page2.close();

  // The back button returns to the previous attack.
  await type("crit", 0);
  await settle();
  await page.goBack();
  await settle();
  const back = await page.$eval("#f-crit", (el) => el.value);
  check(back === "2", `back button: crit ${back}`);

  // An error shows beside its field (from the API's typed origin), in
  // words that name no flag.
  await type("power", -1);
  await settle();
  const err = await page.$eval("#e-power", (el) => el.textContent);
  check(err.includes("power must be at least 0") && !err.includes("--"), `error display: '${err}'`);
  await type("power", 6);
  await settle();

  // Compare: two setups, one chart, a difference column.
  await page.click("nav button[data-mode='compare']");
  await page.type("#setup-name", "crit 2");
  await page.click("#add-setup");
  await settle();
  await page.click("nav button[data-mode='attack']");
  await type("crit", 0);
  await type("power", 8);
  await settle();
  await page.click("nav button[data-mode='compare']");
  await page.type("#setup-name", "power 8");
  await page.click("#add-setup");
  await settle();
  const rows = await page.$$eval("#compare-table tr", (trs) => trs.slice(1).map((tr) => [...tr.cells].map((c) => c.textContent)));
  check(rows.length === 2, `compare rows ${rows.length}`);
  check(rows[0][2] === expected.mean && rows[1][2] === expected.power8_mean, `compare values ${JSON.stringify(rows)}`);
  check(rows[1][4].startsWith("+") || rows[1][4].startsWith("-"), `difference column ${rows[1][4]}`);
  report.compare = rows;
  // The compare mode and its setups are in the URL too.
  {
    const search = await page.evaluate(() => location.search);
    check(search.includes("mode=compare") && search.includes("setup="), `compare URL ${search}`);
    const p = await browser.newPage();
    await p.goto(url + search, { waitUntil: "domcontentloaded" });
    await p.waitForSelector("body[data-ready='1']");
    const again = await p.$$eval("#compare-table tr", (trs) => trs.slice(1).map((tr) => [...tr.cells].map((c) => c.textContent)));
    check(JSON.stringify(again) === JSON.stringify(rows), `compare round trip ${JSON.stringify(again)}`);
    await p.close();
  }

  // The card picker.
  if (expected.card) {
    await page.click("nav button[data-mode='cards']");
    await page.type("#card-q", expected.card.search);
    await page.waitForSelector("#card-list div");
    await page.click("#card-list div");
    await page.keyboard.down("Shift");
    const items = await page.$$("#card-list div");
    await items[Math.min(1, items.length - 1)].click();
    await page.keyboard.up("Shift");
    await settle();
    await page.$eval("#card-att", (el, v) => { el.value = v; el.dispatchEvent(new Event("input")); }, expected.card.attacker);
    await page.$eval("#card-def", (el, v) => { el.value = v; el.dispatchEvent(new Event("input")); }, expected.card.defender);
    await settle();
    const cm = await exactMean();
    check(cm === expected.card.mean, `card attack ${cm} != ${expected.card.mean}`);
    // A stack built with the picker (no shift key on a phone).
    await page.select("#pick-how", "att+");
    await page.click("#card-list div");
    await settle();
    const stacked = await page.$eval("#card-att", (el) => el.value);
    check(stacked.includes(" + "), `stack built by the picker: '${stacked}'`);
    // Typing in the search box right after changing a card no longer
    // cancels the pending result: each has its own debounce timer.
    await page.$eval("#card-att", (el, v) => { el.value = v; el.dispatchEvent(new Event("input")); }, expected.card.attacker);
    await page.type("#card-q", "a");
    await settle();
    const afterSearch = await exactMean();
    check(afterSearch === expected.card.mean, `a search while a result is pending: ${afterSearch} != ${expected.card.mean}`);
    // The cards and the mode are in the URL: a new page shows the same.
    const search = await page.evaluate(() => location.search);
    const p = await browser.newPage();
    await p.goto(url + search, { waitUntil: "domcontentloaded" });
    await p.waitForSelector("body[data-ready='1']");
    const again = await p.$$eval(".card", (cards) => {
      const c = cards.find((c) => c.textContent.startsWith("E[damage] to the defender"));
      return c ? c.querySelectorAll("span")[1].textContent : null;
    });
    check(again === expected.card.mean, `cards round trip ${again} (${search})`);
    await p.close();
    const classes = await page.$$eval("#card-abilities .cls", (els) => els.length);
    check(classes > 0, "abilities by class shown");
    report.card_mean = cm;
  }

  // A scenario of several units, typed as a scenario file's JSON.
  await page.click("nav button[data-mode='scenario']");
  await page.$eval("#scenario-text", (el, v) => { el.value = v; el.dispatchEvent(new Event("input")); }, expected.scenario.text);
  await settle();
  const sm = await exactMean();
  check(sm === expected.scenario.mean, `scenario ${sm} != ${expected.scenario.mean}`);
  const units = await page.$$eval("#units-table tr", (trs) => trs.slice(1).map((tr) => tr.cells[0].textContent));
  check(units.length === expected.scenario.units, `scenario units ${JSON.stringify(units)}`);
  const scenarioUrl = await page.evaluate(() => location.search);
  check(scenarioUrl.includes("mode=scenario") && scenarioUrl.includes("scenario="), `scenario URL ${scenarioUrl}`);
  report.scenario_mean = sm;
  await page.screenshot({ path: `${outDir}/page-scenario-1280.png`, fullPage: true });

  // Phone width: no mode is wider than the screen.
  await page.setViewport({ width: 390, height: 844 });
  for (const mode of ["scenario", "cards", "combine", "compare", "attack"]) {
    await page.click(`nav button[data-mode='${mode}']`);
    await settle();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check(overflow <= 1, `phone width, ${mode}: the page is ${overflow}px wider than the screen`);
  }
  await page.screenshot({ path: `${outDir}/page-390.png`, fullPage: true });
  report.ok = true;
  console.log(JSON.stringify(report));
} finally {
  await browser.close();
}
