// approve.cjs PLAN: answers maison's approval page in a real headless
// Chromium, as a person would, and says what the page said.
//
// PLAN is JSON: {url, action: "approve"|"decline"|"none", password,
// replay: answer a second tab's copy of the page after the first,
// attacker: a page of another site that posts the form for the person
// (its query gets r, b and the password), framer: a page of another site
// that frames the link, shots: {dir, name}: screenshots at 1280 and 390
// pixels wide, light and dark}.
// Prints JSON: {status, lang, text, scripts, replay, attacker, framed}.
//
// Needs npm playwright-core (found through NODE_PATH) and Debian chromium
// (CHROMIUM, default /usr/bin/chromium).
"use strict";
const { chromium } = require("playwright-core");

async function text(page) {
  return (await page.textContent("main").catch(() => "")).replace(/\s+/g, " ").trim();
}

async function submit(page, action) {
  const [resp] = await Promise.all([
    page.waitForNavigation({ timeout: 20000 }),
    page.click(`button[value="${action}"]`),
  ]);
  return resp ? resp.status() : 0;
}

async function shots(browser, url, shot, locale) {
  for (const scheme of ["light", "dark"]) {
    for (const width of [1280, 390]) {
      const ctx = await browser.newContext({ viewport: { width, height: width > 500 ? 800 : 844 }, colorScheme: scheme, deviceScaleFactor: width > 500 ? 1 : 2, locale });
      const page = await ctx.newPage();
      await page.goto(url, { waitUntil: "load" });
      // A word broken mid-way shows as a line box narrower than its word:
      // the page must not overflow the phone's width.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      if (overflow) throw new Error(`the page is wider than ${width} px`);
      await page.screenshot({ path: `${shot.dir}/${shot.name}-${width > 500 ? "desktop" : "phone"}-${scheme}.png`, fullPage: true });
      await ctx.close();
    }
  }
}

async function main() {
  const plan = JSON.parse(process.argv[2]);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", headless: true });
  const out = {};
  try {
    if (plan.shots) await shots(browser, plan.url, plan.shots, plan.locale);
    const ctx = await browser.newContext({ locale: plan.locale });
    const page = await ctx.newPage();
    const scripts = [];
    page.on("request", (r) => { if (r.resourceType() === "script") scripts.push(r.url()); });
    const first = await page.goto(plan.url, { waitUntil: "domcontentloaded", timeout: 20000 });
    out.status = first ? first.status() : 0;
    out.lang = await page.getAttribute("html", "lang");
    out.text = await text(page);
    let second;
    if (plan.replay) {
      second = await ctx.newPage();
      await second.goto(plan.url, { waitUntil: "domcontentloaded" });
    }
    if (plan.attacker) {
      const r = await page.inputValue('input[name="r"]');
      const b = await page.inputValue('input[name="b"]');
      const evil = await ctx.newPage();
      await evil.goto(`${plan.attacker}?${new URLSearchParams({ r, b, password: plan.password || "" })}`);
      const [resp] = await Promise.all([evil.waitForNavigation({ timeout: 20000 }), evil.click("#go")]);
      out.attacker = { status: resp ? resp.status() : 0, text: await text(evil) };
    }
    if (plan.framer) {
      const evil = await ctx.newPage();
      await evil.goto(plan.framer, { waitUntil: "load" });
      const frame = evil.frames().find((f) => f !== evil.mainFrame());
      const framedText = frame ? await frame.textContent("body").catch(() => "") : "";
      out.framed = { url: frame ? frame.url() : "", text: (framedText || "").trim().slice(0, 200) };
    }
    if (plan.action === "approve" || plan.action === "decline") {
      if (plan.action === "approve" && plan.password) await page.fill("#password", plan.password);
      out.status = await submit(page, plan.action);
      out.text = await text(page);
    }
    if (second) {
      if (plan.password) await second.fill("#password", plan.password);
      out.replay = { status: await submit(second, "approve"), text: await text(second) };
    }
    out.scripts = scripts;
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(out) + "\n");
}

main().catch((err) => {
  process.stderr.write(`approve.cjs: ${err.message}\n`);
  process.exit(1);
});
