import { McpClientError } from '../mcp-client.error.js';
import { negotiateEra } from './era-negotiation.js';
import { probeVerdict, type McpProbeAnswer } from './era-probe.js';

const DISCOVER = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {} },
  ttlMs: 0,
  cacheScope: 'private',
};
const rpcError = (code: number, data?: unknown) => ({
  jsonrpc: '2.0',
  id: 'p',
  error: { code, message: 'refused', ...(data !== undefined && { data }) },
});
const rpcResult = (result: unknown) => ({ jsonrpc: '2.0', id: 'p', result });
const http = (status: number, body?: unknown): McpProbeAnswer =>
  body === undefined ? { status, json: false } : { status, json: true, body };

describe('probeVerdict: the dual-era client reading the answer to server/discover', () => {
  const table: [string, McpProbeAnswer, 'http' | 'process', string, string?][] = [
    ['200 + DiscoverResult with a common revision', http(200, rpcResult(DISCOVER)), 'http', 'modern', '2026-07-28'],
    ['stdio DiscoverResult with a common revision', { json: true, body: rpcResult(DISCOVER) }, 'process', 'modern', '2026-07-28'],
    [
      '200 + DiscoverResult without a common revision',
      http(200, rpcResult({ ...DISCOVER, supportedVersions: ['2027-01-01'] })),
      'http',
      'legacy',
    ],
    ['200 + a result that is no DiscoverResult', http(200, rpcResult({ tools: [] })), 'http', 'legacy'],
    [
      '400 + -32022 naming a common revision',
      http(400, rpcError(-32022, { supported: ['2026-07-28'], requested: 'x' })),
      'http',
      'retry',
      '2026-07-28',
    ],
    ['200 + -32022 naming only initialize-era revisions', http(200, rpcError(-32022, { supported: ['2025-11-25'] })), 'http', 'legacy'],
    ['400 + -32022 without data.supported', http(400, rpcError(-32022)), 'http', 'legacy'],
    ['400 + -32022 naming only unknown modern revisions', http(400, rpcError(-32022, { supported: ['2027-01-01'] })), 'http', 'error'],
    ['200 + -32601 (a 2025 server)', http(200, rpcError(-32601)), 'http', 'legacy'],
    ['400 + -32000 "no session" (a 2025 server)', http(400, rpcError(-32000)), 'http', 'legacy'],
    ['400 + -32020', http(400, rpcError(-32020)), 'http', 'legacy'],
    ['400 + -32021', http(400, rpcError(-32021)), 'http', 'legacy'],
    ['stdio -32601', { json: true, body: rpcError(-32601) }, 'process', 'legacy'],
    ['400 without a body', http(400), 'http', 'legacy'],
    ['404 without a JSON-RPC body', http(404, { message: 'Not Found' }), 'http', 'legacy'],
    ['405 without a body', http(405), 'http', 'legacy'],
    ['401', http(401), 'http', 'error'],
    ['403 with a JSON-RPC error', http(403, rpcError(-32601)), 'http', 'error'],
    ['500', http(500), 'http', 'error'],
    ['503 with a DiscoverResult', http(503, rpcResult(DISCOVER)), 'http', 'error'],
    ['200 with a body that is not JSON', http(200), 'http', 'error'],
    ['HTTP network failure', { failure: new McpClientError('UNAVAILABLE', 'refused') }, 'http', 'error'],
    ['stdio timeout', { failure: new McpClientError('TIMEOUT', 'late') }, 'process', 'legacy'],
    ['stdio child exited', { failure: new McpClientError('UNAVAILABLE', 'exited') }, 'process', 'legacy'],
  ];

  const rows = table.map(([name, answer, connection, kind, version]) => ({ name, answer, connection, kind, version: version ?? null }));

  it.each(rows)('$name → $kind', ({ answer, connection, kind, version }) => {
    const verdict = probeVerdict(answer, connection);
    expect(verdict.kind).toBe(kind);
    if (version !== null) expect(verdict).toMatchObject({ version });
  });

  it('keeps the status of a refused probe and the DiscoverResult of a modern one', () => {
    expect(probeVerdict(http(503), 'http')).toMatchObject({ kind: 'error', error: { code: 'UNAVAILABLE', status: 503 } });
    expect(probeVerdict(http(401), 'http')).toMatchObject({ kind: 'error', error: { code: 'PROTOCOL', status: 401 } });
    expect(probeVerdict(http(200, rpcResult(DISCOVER)), 'http')).toMatchObject({ kind: 'modern', result: DISCOVER });
  });
});

describe('negotiateEra', () => {
  it('retries once at the revision a -32022 names (the same one too), and settles on what the second answer says', async () => {
    const asked: string[] = [];
    const answers = [http(400, rpcError(-32022, { supported: ['2026-07-28'] })), http(200, rpcResult(DISCOVER))];
    const era = await negotiateEra(async (version) => (asked.push(version), answers.shift()!), 'http');
    expect(asked).toEqual(['2026-07-28', '2026-07-28']);
    expect(era).toMatchObject({ kind: 'modern', version: '2026-07-28' });
    // Refused twice: no third probe, initialize.
    const twice = [http(400, rpcError(-32022, { supported: ['2026-07-28'] })), http(400, rpcError(-32022, { supported: ['2026-07-28'] }))];
    await expect(negotiateEra(async () => twice.shift()!, 'http')).resolves.toMatchObject({ kind: 'legacy' });
  });

  it('is modern on a DiscoverResult and throws the error of a verdict without fallback', async () => {
    await expect(negotiateEra(async () => http(200, rpcResult(DISCOVER)), 'http')).resolves.toMatchObject({
      kind: 'modern',
      version: '2026-07-28',
    });
    await expect(negotiateEra(async () => http(502), 'http')).rejects.toMatchObject({ code: 'UNAVAILABLE', status: 502 });
    await expect(negotiateEra(async () => http(404), 'http')).resolves.toMatchObject({ kind: 'legacy' });
  });
});
