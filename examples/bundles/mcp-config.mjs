// Print the command, arguments and environment a host starts an unpacked bundle with, as JSON.
// It asks the MCPB library's own getMcpConfigForManifest (what hosts use to turn a manifest's
// mcp_config and the person's user_config into a server command), so a test can start the server
// exactly as a host would.
//
// usage: node mcp-config.mjs <unpacked bundle dir> <home dir> [user_config JSON]
import { readFileSync } from "node:fs";
import { join, sep } from "node:path";
import { getMcpConfigForManifest } from "@anthropic-ai/mcpb";

const [dir, home, userConfigJson] = process.argv.slice(2);
if (!dir || !home) {
  console.error("usage: node mcp-config.mjs <unpacked bundle dir> <home dir> [user_config JSON]");
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
const config = await getMcpConfigForManifest({
  manifest,
  extensionPath: dir,
  systemDirs: { HOME: home, DESKTOP: join(home, "Desktop"), DOCUMENTS: join(home, "Documents") },
  userConfig: userConfigJson ? JSON.parse(userConfigJson) : {},
  pathSeparator: sep,
});
if (config === undefined) {
  console.error("the host would not start this bundle (missing required configuration or no mcp_config)");
  process.exit(1);
}
process.stdout.write(JSON.stringify(config) + "\n");
