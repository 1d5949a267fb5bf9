// A small MCP Apps host for maison's tests, built on the SDK's own host
// bridge (AppBridge) and the official MCP client: it connects to /mcp on
// its own origin declaring that it renders apps, finds the tool's ui://
// resource, reads it, renders it in a sandboxed frame under the spec's
// default Content Security Policy (no network at all), and passes the
// frame's tool calls to maison. The query string sets the tool and its
// arguments, the protocol era, the theme and the safe-area insets.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  AppBridge,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
  getToolUiResourceUri,
} from "@modelcontextprotocol/ext-apps/app-bridge";

// The spec's restrictive default, for a resource that declares no domain.
const CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
  "img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; " +
  "object-src 'none'; base-uri 'self'";

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
  state.resource = { uri, meta: res._meta || null, bytes: res.text.length };
  const html = res.text.replace(/<head>/i, () => `<head><meta http-equiv="Content-Security-Policy" content="${CSP}">`);

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
