/** What the suite tells the client about one run (`MCP_CONFORMANCE_*` and the server URL argument). */
export interface ScenarioRun {
  readonly scenario: string;
  readonly serverUrl: string;
  /** The revision the run targets: `2026-07-28` is the stateless era, older dates the initialize era. */
  readonly protocolVersion: string;
  /** `MCP_CONFORMANCE_CONTEXT`: credentials of the auth scenarios, the tool calls of http-custom-headers, … */
  readonly context: Record<string, unknown>;
}

export function scenarioRunFromEnv(env: NodeJS.ProcessEnv, argv: readonly string[]): ScenarioRun {
  const serverUrl = argv[argv.length - 1];
  const scenario = env.MCP_CONFORMANCE_SCENARIO;
  if (!serverUrl || !/^https?:\/\//.test(serverUrl) || !scenario) {
    throw new Error('usage: MCP_CONFORMANCE_SCENARIO=<name> node main.js <server-url>');
  }
  const context = env.MCP_CONFORMANCE_CONTEXT ? (JSON.parse(env.MCP_CONFORMANCE_CONTEXT) as Record<string, unknown>) : {};
  return { scenario, serverUrl, protocolVersion: env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? '2025-11-25', context };
}
