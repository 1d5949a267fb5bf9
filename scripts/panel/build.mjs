// Bundles the camera panel's script (src/panel.js with the MCP Apps SDK)
// and inlines it into src/panel.html, giving one self-contained HTML file.
// The same sources and the versions pinned in package-lock.json give the
// same bytes: esbuild's output does not depend on the machine or the time.
//
//   node build.mjs OUT.html            the panel maison embeds
//   node build.mjs --host OUT_DIR      also the test host page (host.html)
import { build } from "esbuild";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

async function bundle(entry) {
  const out = await build({
    entryPoints: [join(here, entry)],
    absWorkingDir: here,
    bundle: true,
    format: "iife",
    platform: "browser",
    target: ["es2022"],
    minify: true,
    charset: "utf8",
    legalComments: "eof",
    write: false,
    logLevel: "error",
  });
  const js = out.outputFiles[0].text;
  if (/<\/script/i.test(js) || js.includes("<!--")) {
    throw new Error(`${entry}: the bundle holds text that would end an inline script`);
  }
  return js;
}

function inline(page, js) {
  const html = readFileSync(join(here, page), "utf8");
  const mark = "/*PANEL_SCRIPT*/";
  if (html.split(mark).length !== 2) throw new Error(`${page}: expected one ${mark}`);
  return html.replace(mark, () => js);
}

const args = process.argv.slice(2);
if (args[0] === "--host") {
  mkdirSync(args[1], { recursive: true });
  writeFileSync(join(args[1], "host.html"), inline("test/host.html", await bundle("test/host.js")));
} else if (args.length === 1) {
  mkdirSync(dirname(args[0]), { recursive: true });
  writeFileSync(args[0], inline("src/panel.html", await bundle("src/panel.js")));
} else {
  console.error("usage: node build.mjs OUT.html | node build.mjs --host OUT_DIR");
  process.exit(2);
}
