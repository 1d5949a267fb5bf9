// Says how Claude Desktop starts an MCP bundle, using the functions of the
// official @anthropic-ai/mcpb package that Claude Desktop itself loads
// bundles with: unpack the .mcpb, then take the manifest's mcp_config for a
// platform, with the person's answers to user_config filled in. CASES is a
// JSON list of {"platform": "darwin", "answers": {…}}. Prints
// {"manifest": …, "configs": [one per case]}; a config is null when Claude
// Desktop would not start the server (a required answer missing).
//
//   node claude-desktop.mjs MCPB_PACKAGE_DIR BUNDLE OUT_DIR CASES
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [pkgDir, bundle, outDir, casesJSON] = process.argv.slice(2);
const mcpb = await import(pathToFileURL(join(pkgDir, "dist", "index.js")).href);

if (!(await mcpb.unpackExtension({ mcpbPath: bundle, outputDir: outDir, silent: true }))) {
  console.error(`could not unpack ${bundle}`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(join(outDir, "manifest.json"), "utf8"));
const home = homedir();
const configs = [];
for (const { platform, answers } of JSON.parse(casesJSON)) {
  // The platform decides which platform_overrides apply.
  Object.defineProperty(process, "platform", { value: platform, configurable: true });
  const config = await mcpb.getMcpConfigForManifest({
    manifest,
    extensionPath: outDir,
    systemDirs: {
      HOME: home,
      DESKTOP: join(home, "Desktop"),
      DOCUMENTS: join(home, "Documents"),
      DOWNLOADS: join(home, "Downloads"),
    },
    userConfig: answers,
    pathSeparator: platform === "win32" ? "\\" : "/",
  });
  configs.push(config ?? null);
}
process.stdout.write(JSON.stringify({ manifest, configs }));
