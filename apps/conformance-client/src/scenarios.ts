import type { McpClient, McpRemoteTool } from '@nest-mcp/core';
import type { ScenarioRun } from './scenario-context.js';
import { loadEverySkill } from './skills.scenario.js';

/** What the client does in one scenario, once connected; the suite checks what it saw on the wire. */
type Scenario = (client: McpClient, run: ScenarioRun) => Promise<void>;

/** Lists the tools and calls each one with placeholder arguments (a string for every required string property). */
const callEveryTool = async (client: McpClient): Promise<void> => {
  for (const tool of await client.listTools()) await client.callTool(tool.name, placeholderArguments(tool));
};

/** The scenarios that need more than the default (list the tools, call the first one). */
const SCENARIOS: Record<string, Scenario> = {
  initialize: async (client) => void (await client.listTools()),
  tools_call: async (client) => void (await client.callTool('add_numbers', { a: 2, b: 3 })),
  'json-schema-ref-no-deref': async (client) => void (await client.listTools()),
  'json-schema-2020-12-preservation': async (client) => {
    const tools = await client.listTools();
    const focal = tools.find((tool) => tool.name !== 'json_schema_echo');
    // The schema goes back exactly as it was listed: the suite compares keyword by keyword.
    await client.callTool('json_schema_echo', { schema: focal?.inputSchema ?? {} });
  },
  'sep-2322-client-request-state': async (client) => {
    for (const name of ['test_mrtr_echo_state', 'test_mrtr_no_state', 'test_mrtr_unrelated', 'test_mrtr_no_result_type']) {
      await client.callTool(name, {});
    }
  },
  'http-standard-headers': async (client) => {
    await callEveryTool(client);
    for (const resource of await client.listResources()) await client.readResource(String(resource.uri));
    for (const prompt of await client.listPrompts()) await client.getPrompt(prompt.name);
  },
  'http-custom-headers': async (client, run) => {
    await client.listTools();
    const calls = (run.context.toolCalls ?? []) as { name: string; arguments: Record<string, unknown> }[];
    for (const call of calls) await client.callTool(call.name, call.arguments);
  },
  'http-invalid-tool-headers': callEveryTool,
  // Skills (SEP-2640): listing reads no file; loading a skill reads and verifies SKILL.md, then its other files.
  'sep-2640-client-no-prefetch': async (client) => void (await client.listSkills()),
  'sep-2640-client-verify-digest': loadEverySkill,
  'sep-2640-client-verify-size': loadEverySkill,
  'sep-2640-client-verify-frontmatter': loadEverySkill,
};

/** Runs the scenario's steps; by default lists the tools and calls the first one. */
export async function runScenario(client: McpClient, run: ScenarioRun): Promise<void> {
  const scenario = SCENARIOS[run.scenario];
  if (scenario) return scenario(client, run);
  const [first] = await client.listTools();
  if (first) await client.callTool(first.name, placeholderArguments(first));
}

function placeholderArguments(tool: McpRemoteTool): Record<string, unknown> {
  const schema = tool.inputSchema as { properties?: Record<string, { type?: unknown }>; required?: unknown };
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const args: Record<string, unknown> = {};
  for (const name of required) {
    const type = schema.properties?.[name]?.type;
    args[name] = type === 'integer' || type === 'number' ? 1 : type === 'boolean' ? true : 'value';
  }
  return args;
}
