// drive.cjs HOST_URL: opens the test host page (scripts/panel/test) in a
// real headless Chromium and does what the Go test asks, one command a line
// on stdin, one JSON answer a line on stdout:
//
//   report                    the cards as shown, the host's record
//   refresh CAMERA_ID         presses that camera's refresh, waits, report
//   refresh-all               presses "refresh all", waits, report
//   enlarge CAMERA_ID         taps that camera's picture, report
//   screenshot WIDTH FILE     the page at that width, whole, as PNG
//   quit
//
// Needs npm playwright-core (found through NODE_PATH) and Debian chromium.
"use strict";
const { chromium } = require("playwright-core");
const readline = require("node:readline");

async function main() {
  const url = process.argv[2];
  if (!url) throw new Error("usage: node drive.cjs HOST_URL");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    // A sandboxed frame then draws in the page's own process, so a
    // screenshot holds all of it; the sandbox and the policy are the same.
    args: ["--disable-features=IsolateSandboxedIframes"],
  });
  const requests = [];
  const console_ = [];
  const violations = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on("request", (r) => requests.push(r.url().slice(0, 200)));
    // A frame's policy violations reach only its console; a data: URL in
    // one is shortened, the directive kept.
    page.on("console", (m) => {
      const text = m.text().replace(/data:[^'"\s]{40,}/g, (u) => `${u.slice(0, 40)}…`);
      if (/Content Security Policy/i.test(text)) violations.push(text.slice(0, 500));
      console_.push(text.slice(0, 500));
    });
    page.on("pageerror", (e) => console_.push(`page error: ${e.message}`));
    await page.goto(url, { waitUntil: "load", timeout: 20000 });
    try {
      await page.waitForFunction(() => window.host && (window.host.ready || window.host.error), null, { timeout: 30000 });
    } catch (err) {
      const state = await page.evaluate(() => JSON.stringify(window.host || null)).catch(() => "unreadable");
      throw new Error(`the host never got ready: ${err.message}\nhost: ${state.slice(0, 2000)}\nconsole: ${console_.join("\n")}\nrequests: ${requests.join("\n")}`);
    }
    const err = await page.evaluate(() => window.host.error);
    if (err) throw new Error(`the host: ${err}`);
    const view = page.frameLocator("#app");
    const settled = async () => {
      await view.locator("body[data-ready=true]").waitFor({ timeout: 30000 });
      await view.locator(".cam[aria-busy]").first().waitFor({ state: "detached", timeout: 30000 });
      await view.locator("#all[aria-busy]").waitFor({ state: "detached", timeout: 30000 });
    };
    const report = async () => {
      const frame = page.frames().find((f) => f !== page.mainFrame());
      const view = await frame.evaluate(() => ({
        lang: document.documentElement.lang,
        title: document.querySelector("#title").textContent,
        status: document.querySelector("#status").textContent,
        refreshAll: document.querySelector("#all").textContent,
        theme: document.documentElement.dataset.theme || "",
        colorScheme: document.documentElement.style.colorScheme || "",
        background: getComputedStyle(document.body).backgroundColor,
        paddingTop: getComputedStyle(document.body).paddingTop,
        cards: [...document.querySelectorAll(".cam")].map((li) => ({
          id: li.dataset.camera,
          name: li.querySelector("h2").textContent,
          state: li.dataset.state,
          large: li.classList.contains("large"),
          says: li.querySelector(".says").textContent,
          live: li.querySelector(".says").getAttribute("aria-live") || "",
          fresh: li.querySelector(".fresh").textContent,
          refresh: li.querySelector(".refresh").textContent,
          refreshLabel: li.querySelector(".refresh").getAttribute("aria-label"),
          alt: li.querySelector("img").alt,
          describedBy: li.querySelector("#" + li.querySelector("img").getAttribute("aria-describedby"))?.textContent || "",
          shown: !li.querySelector(".pic").hidden && getComputedStyle(li.querySelector(".pic")).display !== "none",
          image: (li.querySelector("img").getAttribute("src") || "").replace(/^data:image\/jpeg;base64,/, ""),
          // The browser decoded the picture: a policy that blocks it leaves 0.
          naturalWidth: li.querySelector("img").naturalWidth,
        })),
      }));
      const host = await page.evaluate((frame) => ({
        calls: window.host.calls,
        // The host page's own violations, and the frame's, which only its
        // console tells.
        violations: [...window.host.violations, ...frame],
        resource: window.host.resource,
        tools: window.host.tools.map((t) => ({ name: t.name, meta: t._meta || null })),
        toolResult: window.host.toolResult,
        log: window.host.log,
      }), violations);
      return { view, host, requests: [...requests], console: [...console_] };
    };
    await settled();
    const lines = readline.createInterface({ input: process.stdin });
    for await (const line of lines) {
      const [cmd, ...args] = line.trim().split(/\s+/);
      let out;
      switch (cmd) {
        case "report":
          out = await report();
          break;
        case "refresh":
          await view.locator(`.cam[data-camera="${args[0]}"] .refresh`).click();
          await settled();
          out = await report();
          break;
        case "refresh-all":
          await view.locator("#all").click();
          await settled();
          out = await report();
          break;
        case "enlarge":
          await view.locator(`.cam[data-camera="${args[0]}"] .pic`).click();
          out = await report();
          break;
        case "screenshot": {
          await page.setViewportSize({ width: Number(args[0]), height: 800 });
          // The frame follows the view's height (size-changed): wait until
          // the host has applied the height the view has at this width.
          const frame = page.frames().find((f) => f !== page.mainFrame());
          const height = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
          await page.waitForFunction((h) => Math.abs(document.querySelector("#app").getBoundingClientRect().height - h) <= 1, height, { timeout: 10000 });
          await settled();
          // The whole page in the viewport, painted at that size.
          const full = await page.evaluate(() => Math.ceil(document.querySelector("#app").getBoundingClientRect().bottom));
          await page.setViewportSize({ width: Number(args[0]), height: full });
          // Two frames painted in the view at this size, then the picture.
          await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          await page.screenshot({ path: args[1] });
          out = {
            file: args[1],
            frameHeight: await page.evaluate(() => document.querySelector("#app").getBoundingClientRect().height),
            viewHeight: await frame.evaluate(() => document.documentElement.getBoundingClientRect().height),
          };
          break;
        }
        case "quit":
          return;
        default:
          out = { error: `unknown command ${cmd}` };
      }
      process.stdout.write(JSON.stringify(out) + "\n");
    }
  } finally {
    await browser.close();
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exit(1);
});
