import 'reflect-metadata';
import { McpClient } from '@nest-mcp/core';
import { clientOptionsFor } from './client-options.js';
import { runScenario } from './scenarios.js';
import { scenarioRunFromEnv } from './scenario-context.js';

/**
 * The client side of the official conformance suite: `node main.js <server-url>` with `MCP_CONFORMANCE_SCENARIO`
 * (and `MCP_CONFORMANCE_CONTEXT`, `MCP_CONFORMANCE_PROTOCOL_VERSION`) drives McpClient the way the scenario asks;
 * exit code 1 when the client failed. Lines on stderr say what happened (never a token).
 */
async function main(): Promise<number> {
  const run = scenarioRunFromEnv(process.env, process.argv);
  const client = new McpClient(clientOptionsFor(run));
  try {
    await client.connect();
    await runScenario(client, run);
    process.stderr.write(`conformance-client: ${run.scenario} done\n`);
    return 0;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    process.stderr.write(`conformance-client: ${run.scenario} failed: ${String(code ?? '')} ${(error as Error).message}\n`);
    return 1;
  } finally {
    await client.close().catch(() => undefined);
  }
}

// Exits explicitly: a keep-alive socket or an open stream must not hold the suite's timeout.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`conformance-client: ${(error as Error).message}\n`);
    process.exit(2);
  },
);
