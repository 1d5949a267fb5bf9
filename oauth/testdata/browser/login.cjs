// login.cjs URL: completes maison's sign-in page in a real headless Chromium,
// as a person would: reads the page, types the operator password, leaves the
// scopes as ticked, presses Approve, and waits to be sent back to the app.
// Prints the address it was sent back to, without the code.
//
// Needs npm playwright-core (found through NODE_PATH) and Debian chromium.
// Environment: MAISON_OPERATOR_PASSWORD (the password to type), CHROMIUM
// (default /usr/bin/chromium), MAISON_LOGIN_ACTION (approve or deny).
"use strict";
const { chromium } = require("playwright-core");

async function main() {
  const url = process.argv[2];
  const password = process.env.MAISON_OPERATOR_PASSWORD;
  if (!url || !password) {
    throw new Error("usage: MAISON_OPERATOR_PASSWORD=... node login.cjs AUTHORIZATION_URL");
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
  });
  try {
    const page = await browser.newPage();
    const scripts = [];
    page.on("request", (r) => { if (r.resourceType() === "script") scripts.push(r.url()); });
    const first = await page.goto(url, { waitUntil: "domcontentloaded", timeout: 20000 });
    if (!first || first.status() !== 200) {
      throw new Error(`the sign-in page answered ${first && first.status()}: ${await page.textContent("body")}`);
    }
    // What a person reads before approving: who asks, and where the answer goes.
    const redirect = (await page.textContent("#redirect")).trim();
    const who = (await page.textContent(".who")).trim();
    await page.fill("#password", password);
    const action = process.env.MAISON_LOGIN_ACTION === "deny" ? "deny" : "approve";
    const back = new URL(redirect);
    const console = [];
    page.on("console", (m) => console.push(m.text()));
    try {
      await Promise.all([
        page.waitForURL((u) => u.origin === back.origin && u.pathname === back.pathname, { timeout: 20000 }),
        page.click(`button[value="${action}"]`),
      ]);
    } catch (err) {
      const body = await page.textContent("body").catch(() => "");
      throw new Error(`${err.message.split("\n")[0]}; the page says: ${body.trim().slice(0, 300)} ${console.join(" ")}`);
    }
    if (scripts.length) throw new Error(`the page loaded scripts: ${scripts.join(", ")}`);
    process.stderr.write(`login.cjs: ${action === "approve" ? "approved" : "denied"} ${who}, sent back to ${back.origin}${back.pathname}\n`);
    // The address without its query: the code stays out of any log.
    const landed = new URL(page.url());
    process.stdout.write(landed.origin + landed.pathname + "\n");
  } finally {
    await browser.close();
  }
}

main().catch((err) => {
  process.stderr.write(`login.cjs: ${err.message}\n`);
  process.exit(1);
});
