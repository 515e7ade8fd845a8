import type { McpClientHttpOptions, McpClientOAuthOptions } from '@nest-mcp/core';
import { followAuthorizationRedirect } from './headless-redirect.js';
import type { ScenarioRun } from './scenario-context.js';

/** The client ID metadata document the suite's CIMD scenario expects as the client ID. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
/** Never served: the headless redirect reads the code off the authorization server's redirect to it. */
const REDIRECT_URI = 'http://127.0.0.1:3000/callback';

/** The client of one scenario: the era the run targets, form elicitation, and OAuth for the auth scenarios. */
export function clientOptionsFor(run: ScenarioRun): McpClientHttpOptions {
  return {
    url: run.serverUrl,
    protocol: run.protocolVersion === '2026-07-28' ? '2026-07-28' : 'legacy',
    clientInfo: { name: 'nest-mcp-conformance-client', version: '1.0.0' },
    capabilities: { elicitation: {} },
    reconnect: false,
    // Generous: the suite's machines may be busy, and the first exchange includes the whole OAuth flow.
    connectTimeoutMs: 90_000,
    timeoutMs: 60_000,
    onRequest: async (method, params) => (method === 'elicitation/create' ? acceptWithDefaults(params) : undefined),
    ...(run.scenario.startsWith('auth/') && { auth: authFor(run) }),
  };
}

function authFor(run: ScenarioRun): McpClientOAuthOptions {
  const context = run.context as {
    client_id?: string;
    client_secret?: string;
    private_key_pem?: string;
    signing_algorithm?: string;
    issuer?: string;
  };
  const client =
    context.client_id === undefined
      ? undefined
      : {
          clientId: context.client_id,
          ...(context.client_secret !== undefined && { clientSecret: context.client_secret }),
          ...(context.private_key_pem !== undefined && { privateKey: context.private_key_pem }),
          ...(context.signing_algorithm !== undefined && { signingAlgorithm: context.signing_algorithm as 'ES256' }),
          ...(context.issuer !== undefined && { issuer: context.issuer }),
        };
  const clientCredentials = run.scenario.startsWith('auth/client-credentials');
  return {
    grant: clientCredentials
      ? { type: 'client_credentials' }
      : { type: 'authorization_code', redirectUri: REDIRECT_URI, authorize: followAuthorizationRedirect },
    ...(client && { client }),
    clientMetadataUrl: CLIENT_METADATA_URL,
    clientName: 'nest-mcp-conformance-client',
    // The suite's servers are plain http on loopback.
    allowInsecureHttp: true,
  };
}

/** A form elicitation accepted with every default the requested schema names (SEP-1034), else a confirmation. */
function acceptWithDefaults(params: Record<string, unknown> | undefined): Record<string, unknown> {
  const properties =
    ((params?.requestedSchema as { properties?: Record<string, { default?: unknown; type?: string }> }) ?? {}).properties ?? {};
  const content: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (property.default !== undefined) content[name] = property.default;
    else if (property.type === 'boolean') content[name] = true;
  }
  return { action: 'accept', content };
}
