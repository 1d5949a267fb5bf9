// A small MCP Apps host for maison's tests, built on the SDK's own host
// bridge (AppBridge) and the official MCP client: it connects to /mcp on
// its own origin declaring that it renders apps, finds the tool's ui://
// resource, reads it, renders it in a sandboxed frame under the strictest
// Content Security Policy a host applies (what the resource declares, and
// nothing else), and passes the
// frame's tool calls to maison. The query string sets the tool and its
// arguments, the protocol era, the theme and the safe-area insets.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  AppBridge,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
  getToolUiResourceUri,
} from "@modelcontextprotocol/ext-apps/app-bridge";

// The Content Security Policy the frame runs under, built as the strictest
// host builds it (MCP Apps specification 2026-01-26, "UI Resource Format",
// McpUiResourceCsp and "Host Behavior"): from the domains the resource
// declares in _meta.ui.csp, and nothing it does not declare. The
// specification lets a host restrict its default further ("Host MAY
// further restrict but MUST NOT allow undeclared domains"), and a real
// host does: with nothing declared, not even data: images load.
function policy(csp = {}) {
  const list = (v, none) => (Array.isArray(v) && v.length ? v.join(" ") : none);
  const res = list(csp.resourceDomains, "'none'");
  const inline = res === "'none'" ? "'unsafe-inline'" : `'unsafe-inline' ${res}`;
  return [
    "default-src 'none'",
    `script-src ${inline}`,
    `style-src ${inline}`,
    `img-src ${res}`,
    `font-src ${res}`,
    `media-src ${res}`,
    `connect-src ${list(csp.connectDomains, "'none'")}`,
    `frame-src ${list(csp.frameDomains, "'none'")}`,
    `base-uri ${list(csp.baseUriDomains, "'self'")}`,
    "form-action 'none'",
    "object-src 'none'",
    "worker-src 'none'",
  ].join("; ");
}

const q = new URLSearchParams(location.search);
const tool = q.get("tool") || "camera_overview";
const args = JSON.parse(q.get("args") || "{}");
const era = q.get("era") || "2026";
const theme = q.get("theme") === "dark" ? "dark" : "light";
const insets = (q.get("insets") || "0,0,0,0").split(",").map(Number);

const state = { log: [], calls: [], violations: [], ready: false, error: "" };
window.host = state;
const log = (...a) => state.log.push(a.map(String).join(" "));

async function main() {
  const client = new Client(
    { name: "maison test host", version: "1" },
    {
      capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [RESOURCE_MIME_TYPE] } } },
      versionNegotiation: { mode: era === "2026" ? { pin: "2026-07-28" } : "legacy" },
    },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", location.href)));
  const { tools } = await client.listTools();
  state.tools = tools;
  const def = tools.find((t) => t.name === tool);
  if (!def) throw new Error(`maison lists no ${tool}`);
  const uri = getToolUiResourceUri(def);
  if (!uri) throw new Error(`${tool} names no ui:// resource`);
  const read = await client.readResource({ uri });
  const res = read.contents[0];
  if (res.mimeType !== RESOURCE_MIME_TYPE) throw new Error(`${uri} is ${res.mimeType}`);
  // The content item's _meta.ui wins over the listing's (the specification's
  // "Metadata Location"); the listing's is read when the item has none.
  const listed = (await client.listResources()).resources.find((r) => r.uri === uri);
  const ui = res._meta?.ui || listed?._meta?.ui || {};
  state.resource = { uri, meta: res._meta || null, listed: listed?._meta || null, bytes: res.text.length, csp: policy(ui.csp) };
  const html = res.text.replace(/<head>/i, () => `<head><meta http-equiv="Content-Security-Policy" content="${state.resource.csp}">`);

  const frame = document.createElement("iframe");
  frame.id = "app";
  frame.setAttribute("sandbox", "allow-scripts");
  frame.title = "maison";
  document.body.append(frame);

  const bridge = new AppBridge(
    client,
    { name: "maison test host", version: "1" },
    { serverTools: {}, serverResources: {}, logging: {} },
    {
      hostContext: {
        theme,
        platform: "web",
        locale: "en-CA",
        timeZone: "America/Toronto",
        displayMode: "inline",
        availableDisplayModes: ["inline"],
        containerDimensions: { width: document.documentElement.clientWidth, maxHeight: 6000 },
        safeAreaInsets: { top: insets[0], right: insets[1], bottom: insets[2], left: insets[3] },
        styles: {
          variables: {
            "--color-background-primary": theme === "dark" ? "#1f1e1d" : "#faf9f5",
            "--color-text-primary": theme === "dark" ? "#f5f4ef" : "#141413",
          },
        },
      },
    },
  );
  bridge.onsizechange = ({ height }) => {
    if (height != null) frame.style.height = `${height}px`;
  };
  bridge.onloggingmessage = (m) => log("view:", JSON.stringify(m));
  bridge.oninitialized = async () => {
    const result = await client.callTool({ name: tool, arguments: args });
    state.toolResult = {
      isError: !!result.isError,
      text: result.content.filter((c) => c.type === "text").map((c) => c.text),
      image: result.content.find((c) => c.type === "image")?.data || "",
    };
    await bridge.sendToolInput({ arguments: args });
    await bridge.sendToolResult(result);
    state.ready = true;
  };
  // The bridge listens before the page loads: the view says ui/initialize
  // as soon as its script runs.
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  // Every call the frame makes goes through here, to maison (set after
  // connect, which installs the SDK's own forwarding).
  bridge.oncalltool = async (params) => {
    const started = performance.now();
    const result = await client.callTool(params);
    state.calls.push({ name: params.name, arguments: params.arguments, isError: !!result.isError, ms: performance.now() - started });
    return result;
  };
  frame.srcdoc = html;
}

document.addEventListener("securitypolicyviolation", (e) => state.violations.push(e.blockedURI));
main().catch((err) => {
  state.error = String(err?.stack || err);
  log("error:", state.error);
});
