// burst.cjs URL TOKEN TOOL N: one session of the official TypeScript SDK's
// client (npm @modelcontextprotocol/sdk), calling TOOL N times, each as soon
// as the last is answered, as an agent does; prints what came back as JSON.
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = require("@modelcontextprotocol/sdk/client/streamableHttp.js");

const [url, token, tool, n] = process.argv.slice(2);
const out = { ok: 0, limited: 0, failed: 0, firstError: "", ms: 0, fatal: "" };

(async () => {
  const client = new Client({ name: "maison-sdktest", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  const t0 = Date.now();
  for (let i = 0; i < Number(n); i++) {
    try {
      const r = await client.callTool({ name: tool, arguments: {} });
      const text = (r.content || []).map((c) => c.text || "").join(" ");
      if (!r.isError) out.ok++;
      else if (text.includes("Try again in")) out.limited++;
      else {
        out.failed++;
        out.firstError ||= text;
      }
    } catch (e) {
      out.failed++;
      out.firstError ||= String(e);
    }
  }
  out.ms = Date.now() - t0;
  await client.close();
})()
  .catch((e) => {
    out.fatal = String(e);
  })
  .finally(() => console.log(JSON.stringify(out)));
