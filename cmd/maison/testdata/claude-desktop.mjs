// Says how Claude Desktop starts an MCP bundle, using the functions of the
// official @anthropic-ai/mcpb package that Claude Desktop itself loads
// bundles with: unpack the .mcpb, then take the manifest's mcp_config for a
// platform, with the person's answers to user_config filled in. Prints
// {"manifest": …, "config": …}; config is null when Claude Desktop would not
// start the server (a required answer missing).
//
//   node claude-desktop.mjs MCPB_PACKAGE_DIR BUNDLE OUT_DIR PLATFORM USER_CONFIG_JSON
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [pkgDir, bundle, outDir, platform, userConfigJSON] = process.argv.slice(2);
const mcpb = await import(pathToFileURL(join(pkgDir, "dist", "index.js")).href);

if (!(await mcpb.unpackExtension({ mcpbPath: bundle, outputDir: outDir, silent: true }))) {
  console.error(`could not unpack ${bundle}`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(join(outDir, "manifest.json"), "utf8"));
// The platform decides which platform_overrides apply.
Object.defineProperty(process, "platform", { value: platform });
const home = homedir();
const config = await mcpb.getMcpConfigForManifest({
  manifest,
  extensionPath: outDir,
  systemDirs: {
    HOME: home,
    DESKTOP: join(home, "Desktop"),
    DOCUMENTS: join(home, "Documents"),
    DOWNLOADS: join(home, "Downloads"),
  },
  userConfig: JSON.parse(userConfigJSON),
  pathSeparator: platform === "win32" ? "\\" : "/",
});
process.stdout.write(JSON.stringify({ manifest, config: config ?? null }));
