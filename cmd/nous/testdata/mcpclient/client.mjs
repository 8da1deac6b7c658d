// Drives nous's MCP server with the official TypeScript SDK client: lists
// the tools, calls each one (ask with a progress callback), calls one with
// bad input, and prints what it got as one JSON object on stdout for
// cmd/nous/mcp_node_test.go to check. The client validates every
// structured result against the tool's output schema itself.
//
// Usage: node client.mjs '{"transport":"stdio","command":"nous","args":["mcp"],"env":{},"question":"…"}'
//        node client.mjs '{"transport":"http","url":"http://127.0.0.1:7878/mcp","token":"…","question":"…"}'
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const config = JSON.parse(process.argv[2]);

function transport() {
  if (config.transport === "stdio") {
    return new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: config.env,
      cwd: config.cwd,
      stderr: "inherit",
    });
  }
  const headers = config.token ? { Authorization: `Bearer ${config.token}` } : {};
  return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers } });
}

const text = (res) => res.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");

const client = new Client({ name: "nous-ts-test", version: "1.0.0" });
await client.connect(transport());
const out = {};
try {
  const { tools } = await client.listTools();
  out.tools = tools.map((t) => ({
    name: t.name,
    description: t.description,
    required: t.inputSchema.required ?? [],
    outputSchema: t.outputSchema !== undefined,
  }));

  const progress = [];
  const ask = await client.callTool(
    { name: "ask", arguments: { query: config.question } },
    undefined,
    { onprogress: (p) => progress.push(p.message) },
  );
  out.ask = { isError: ask.isError ?? false, text: text(ask), structured: ask.structuredContent, progress };

  const plan = await client.callTool({ name: "plan", arguments: { query: config.question } });
  out.plan = { isError: plan.isError ?? false, text: text(plan), structured: plan.structuredContent };

  const fetched = await client.callTool({ name: "fetch", arguments: { source: "gitlab", limit: 5 } });
  out.fetch = { isError: fetched.isError ?? false, text: text(fetched), structured: fetched.structuredContent };

  const lint = await client.callTool({
    name: "lint",
    arguments: { files: [{ name: "modes.hcl", content: 'mode "m" {\n  on_empty = "nowhere"\n}\n' }] },
  });
  out.lint = { isError: lint.isError ?? false, text: text(lint), structured: lint.structuredContent };

  const bad = await client.callTool({ name: "ask", arguments: { query: "what changed?", mode: "nope" } });
  out.bad = { isError: bad.isError ?? false, text: text(bad) };
} finally {
  await client.close();
}
process.stdout.write(JSON.stringify(out) + "\n");
