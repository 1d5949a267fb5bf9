// inspector.cjs INSPECTOR_URL APP_TITLE: opens MCP Inspector's web UI in a
// real headless Chromium as a person would, connects it to the server it
// was started with, opens the app of that title on its Apps tab, waits
// until the camera panel has shown every camera, and writes one JSON line:
// the cards as the panel shows them (with whether the browser decoded each
// picture) and every Content Security Policy violation any frame reported.
//
// Needs npm playwright-core (found through NODE_PATH) and Debian chromium.
"use strict";
const { chromium } = require("playwright-core");

const violations = [];
const console_ = [];

async function main() {
  const [url, title] = process.argv.slice(2);
  if (!url || !title) throw new Error("usage: node inspector.cjs INSPECTOR_URL APP_TITLE");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    // Every frame's console reaches the page's: the Inspector's, its
    // sandbox proxy's and the panel's. A violation is shortened, its
    // directive kept.
    page.on("console", (m) => {
      const text = m.text().replace(/data:[^'"\s]{40,}/g, (u) => `${u.slice(0, 40)}…`);
      if (/Content Security Policy/i.test(text)) violations.push(text.slice(0, 500));
      console_.push(text.slice(0, 300));
    });
    page.on("pageerror", (e) => console_.push(`page error: ${e.message}`));
    await page.goto(url, { waitUntil: "load", timeout: 30000 });
    // Connect (the server's switch), then the Apps tab, then the app.
    await page.getByRole("switch").first().click({ force: true, timeout: 30000 });
    await page.getByText("Connected", { exact: true }).first().waitFor({ timeout: 60000 });
    await page.getByText("Apps", { exact: true }).first().click();
    await page.getByRole("button", { name: title }).first().click({ timeout: 30000 });
    // The panel is a frame inside the Inspector's sandbox frame: found by
    // its grid, then waited for until every card has its answer.
    const deadline = Date.now() + 60000;
    let view = null;
    while (!view && Date.now() < deadline) {
      for (const f of page.frames()) {
        if (await f.$("body[data-ready=true] #grid").catch(() => null)) view = f;
      }
      if (!view) await page.waitForTimeout(200);
    }
    if (!view) throw new Error(`the panel never showed its cameras in the Inspector (frames: ${page.frames().map((f) => f.url().slice(0, 80)).join(", ")})`);
    await view.waitForFunction(() => !document.querySelector(".cam[aria-busy], #all[aria-busy]"), null, { timeout: 30000 });
    // Each picture decoded, or not: the browser's own answer.
    await view.waitForFunction(() => [...document.querySelectorAll(".cam img[src]")].every((i) => i.complete), null, { timeout: 30000 });
    const cards = await view.evaluate(() =>
      [...document.querySelectorAll(".cam")].map((li) => {
        const img = li.querySelector("img");
        return {
          id: li.dataset.camera,
          state: li.dataset.state,
          fresh: li.querySelector(".fresh").textContent,
          says: li.querySelector(".says").textContent,
          image: (img.getAttribute("src") || "").replace(/^data:image\/jpeg;base64,/, ""),
          naturalWidth: img.naturalWidth,
        };
      }),
    );
    if (process.env.INSPECTOR_SCREENSHOT) await page.screenshot({ path: process.env.INSPECTOR_SCREENSHOT });
    process.stdout.write(JSON.stringify({ cards, violations, console: console_ }) + "\n");
  } finally {
    await browser.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\nthe page's console:\n${console_.join("\n")}\n`);
  process.exit(1);
});
