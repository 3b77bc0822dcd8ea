// Drive one MCP server with the official TypeScript SDK client and print what it saw as JSON.
//
// Usage: node drive.mjs <spec.json>
//   spec: {"server": "papers-mcp", "transport": "stdio", "command": "...", "args": [...], "env": {...}}
//      or {"server": "research-mcp", "transport": "http", "url": "http://127.0.0.1:PORT/mcp"}
//   optional: "calls" (path of the call table, default ./calls.json), "timeoutMs".
//
// For each tool in tools/list it makes the table's valid call and its invalid call, in list order,
// and records the raw results. pytest (tests/test_clients_typescript.py) compares them with what
// the Python SDK's Client sees. Exit code: 0 when the session ran (tool errors are data, not
// failures), 2 on bad usage, 1 when the connection or a request failed.

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const here = dirname(fileURLToPath(import.meta.url));

function fail(code, message) {
  process.stderr.write(`drive.mjs: ${message}\n`);
  process.exit(code);
}

if (process.argv.length !== 3) fail(2, "usage: node drive.mjs <spec.json>");
const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
const table = JSON.parse(readFileSync(spec.calls ?? join(here, "calls.json"), "utf8"));
const entries = table[spec.server];
if (!entries) fail(2, `calls.json has no section for server ${JSON.stringify(spec.server)}`);
const timeout = spec.timeoutMs ?? 120000;

function makeTransport() {
  if (spec.transport === "stdio") {
    return new StdioClientTransport({
      command: spec.command,
      args: spec.args ?? [],
      env: spec.env,
      cwd: spec.cwd,
      stderr: "inherit",
    });
  }
  if (spec.transport === "http") return new StreamableHTTPClientTransport(new URL(spec.url));
  fail(2, `unknown transport ${JSON.stringify(spec.transport)}`);
}

const client = new Client({ name: "ts-sdk-client-test", version: "1.0.0" }, { capabilities: {} });
const logs = [];
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params));

const out = { transport: spec.transport, server: spec.server, calls: [], missing: [] };

// Record the protocol version the server answered in its initialize result: the SDK uses it
// but does not expose it for stdio.
function recordingProtocolVersion(transport) {
  let handler;
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    get: () => handler,
    set: (fn) => {
      handler = (message, extra) => {
        if (message?.result?.protocolVersion && out.protocolVersion === undefined) {
          out.protocolVersion = message.result.protocolVersion;
        }
        return fn?.(message, extra);
      };
    },
  });
  return transport;
}

try {
  await client.connect(recordingProtocolVersion(makeTransport()), { timeout });
  out.serverInfo = client.getServerVersion();
  out.capabilities = client.getServerCapabilities();
  out.instructions = client.getInstructions() ?? null;
  if (out.capabilities?.logging) await client.setLoggingLevel("info");

  const listed = await client.listTools(undefined, { timeout });
  out.tools = listed.tools;
  for (const tool of listed.tools) {
    const entry = entries[tool.name];
    if (!entry) {
      out.missing.push(tool.name);
      continue;
    }
    for (const kind of ["valid", "invalid"]) {
      const args = entry[kind].arguments;
      const progress = [];
      const record = { tool: tool.name, kind, arguments: args };
      try {
        record.result = await client.callTool({ name: tool.name, arguments: args }, undefined, {
          timeout,
          resetTimeoutOnProgress: true,
          onprogress: (p) => progress.push(p),
        });
      } catch (err) {
        // A protocol-level failure (or a result the SDK rejects against the output schema).
        record.error = { name: err?.name ?? "Error", code: err?.code ?? null, message: String(err?.message ?? err) };
      }
      record.progress = progress;
      out.calls.push(record);
    }
  }
  out.logs = logs;
} catch (err) {
  process.stdout.write(JSON.stringify(out) + "\n");
  fail(1, `session failed: ${err?.stack ?? err}`);
} finally {
  await client.close().catch(() => {});
}
process.stdout.write(JSON.stringify(out) + "\n");
