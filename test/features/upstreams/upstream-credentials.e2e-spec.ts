import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Injectable } from '@nestjs/common';
import {
  McpContext,
  McpPrompt,
  McpResource,
  McpTool,
  type McpPromptContext,
  type McpResourceContext,
  type McpToolContext,
  type McpUpstreamOptions,
} from '@nest-mcp/core';
import { SignJWT } from 'jose';
import { listenMcp, type RunningApp } from '../../kit/apps.js';

/**
 * Whose credential a call carries upstream when the caller's `Authorization` is forwarded (one trust domain: the
 * gateway and the upstream accept the same tokens): each call its own caller's, whoever else of the tenant calls at
 * the same time, while the upstream session opens or after. The upstream authenticates each request and answers the
 * subject of the token it arrived with.
 */

const SECRET = 'upstream-credentials-secret-0123456789';

function token(sub: string): Promise<string> {
  return new SignJWT({ tenant_id: 'acme' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(SECRET));
}

@Injectable()
class WhoAmITools {
  @McpTool({ name: 'whoami', description: 'The subject of the token this call arrived with' })
  whoami(@McpContext() context: McpToolContext): { subject: string | null } {
    return { subject: context.principal?.subject ?? null };
  }

  @McpResource({ uri: 'whoami://me', name: 'me', mimeType: 'text/plain' })
  me(_params: Record<string, string>, context: McpResourceContext): string {
    return `subject ${context.principal?.subject ?? 'none'}`;
  }

  @McpPrompt({ name: 'greeting', description: 'Greets the subject of the token this request arrived with' })
  greeting(_args: Record<string, string>, context: McpPromptContext): string {
    return `Hello ${context.principal?.subject ?? 'nobody'}`;
  }
}

async function connect(url: string, bearer?: string): Promise<Client> {
  const client = new Client({ name: 'credentials-e2e', version: '1.0.0' });
  const headers: Record<string, string> = bearer ? { Authorization: `Bearer ${bearer}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** The subject the upstream saw for one call through the gateway, or `refused` when the call failed. */
async function subjectSeen(client: Client): Promise<string> {
  try {
    const result = (await client.callTool({ name: 'up_whoami', arguments: {} })) as {
      isError?: boolean;
      structuredContent?: { status: string; data?: { subject: string | null } };
    };
    return result.structuredContent?.status === 'success' ? String(result.structuredContent.data?.subject) : 'refused';
  } catch {
    return 'refused';
  }
}

/** `rounds` rounds of calls of every client at once; what each client's calls saw. */
async function overlapping(clients: Record<string, Client>, rounds: number): Promise<Record<string, string[]>> {
  const seen: Record<string, string[]> = Object.fromEntries(Object.keys(clients).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    await Promise.all(
      Object.entries(clients).flatMap(([name, client]) =>
        [0, 1, 2].map(async () => {
          seen[name].push(await subjectSeen(client));
        }),
      ),
    );
  }
  return seen;
}

describe('gateway: a forwarded credential is the calling caller’s own (forwardAuthorization)', () => {
  let upstream: RunningApp;
  let upstreamOptions: McpUpstreamOptions;
  const opened: Array<{ close(): Promise<unknown> }> = [];

  beforeAll(async () => {
    upstream = await listenMcp({ name: 'up', version: '1.0.0', auth: { jwt: { secret: SECRET } } }, [WhoAmITools]);
    const own = `Bearer ${await token('gateway')}`;
    upstreamOptions = {
      name: 'up',
      url: upstream.url,
      forwardAuthorization: true,
      // The gateway's own connection (it lists the upstream's tools) signs in as itself; calls carry the caller's token.
      credentials: (caller): Record<string, string> => (caller.tenant === undefined ? { authorization: own } : {}),
    };
  }, 30_000);
  afterEach(async () => {
    for (const thing of opened.splice(0).reverse()) await thing.close();
  });
  afterAll(async () => {
    await upstream?.close();
  });

  /** A gateway verifying the same tokens as the upstream, and alice and bob connected to it. */
  async function signedInCallers(): Promise<{ alice: Client; bob: Client }> {
    const gateway = await listenMcp({
      name: 'gateway',
      version: '1.0.0',
      auth: { jwt: { secret: SECRET } },
      sources: { upstreams: [upstreamOptions] },
    });
    opened.push(gateway);
    const alice = await connect(gateway.url, await token('alice'));
    const bob = await connect(gateway.url, await token('bob'));
    opened.push(alice, bob);
    return { alice, bob };
  }

  it('two callers of one tenant calling at once, from the first use on, each reach the upstream with their own token', async () => {
    const { alice, bob } = await signedInCallers();
    const seen = await overlapping({ alice, bob }, 4);
    expect(seen.alice).toEqual(Array(12).fill('alice'));
    expect(seen.bob).toEqual(Array(12).fill('bob'));
  });

  it('open access: an anonymous call never rides a signed-in caller’s token, and theirs never goes without it', async () => {
    const gateway = await listenMcp({
      name: 'gateway',
      version: '1.0.0',
      sources: { upstreams: [upstreamOptions] },
    });
    opened.push(gateway);
    const alice = await connect(gateway.url, await token('alice'));
    const anonymous = await connect(gateway.url);
    opened.push(alice, anonymous);
    const seen = await overlapping({ alice, anonymous }, 4);
    expect(seen.alice).toEqual(Array(12).fill('alice'));
    expect(seen.anonymous).toEqual(Array(12).fill('refused'));
  });

  it('a relayed resource read and prompt carry the caller’s own token, as tool calls do', async () => {
    const { alice, bob } = await signedInCallers();
    const { resources } = await alice.listResources();
    expect(resources).toEqual([expect.objectContaining({ uri: 'up+whoami://me', name: 'me' })]);
    const [me] = resources;
    for (const [client, subject] of [
      [alice, 'alice'],
      [bob, 'bob'],
    ] as const) {
      expect(await subjectSeen(client)).toBe(subject);
      const read = await client.readResource({ uri: me.uri });
      expect(read.contents).toEqual([expect.objectContaining({ uri: me.uri, text: `subject ${subject}` })]);
      const prompt = await client.getPrompt({ name: 'up_greeting' });
      expect(prompt.messages[0]).toMatchObject({ role: 'user', content: { type: 'text', text: `Hello ${subject}` } });
    }
  });
});
