import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { IsString } from 'class-validator';
import { McpArgs, McpTool } from '../../libs/mcp/src/index.js';
import { listenMcp, type RunningApp } from '../kit/apps.js';
import { RecordingLogger } from '../kit/recording-logger.js';

class GreetDto {
  @IsString() name: string;
}

@Injectable()
class GreetTools {
  @McpTool({ description: 'Greets someone by name' })
  greet(@McpArgs() args: GreetDto) {
    return { greeting: `Hello, ${args.name}!` };
  }
}

/**
 * What the quick start's server maps (issue 41 item 8), each route for something it serves: the MCP endpoint, its
 * job poll URL, the 2024-11-05 HTTP+SSE pair and the Server Card. The RFC 9728 documents, which only answered 404
 * without OAuth configured, are mapped with `auth.resourceMetadata`, `auth.oauth` or `auth.bridge`.
 */
describe("the quick start's routes", () => {
  const boot = async (options: Parameters<typeof listenMcp>[0]) => {
    const logger = new RecordingLogger();
    const server: RunningApp = await listenMcp(options, [GreetTools], { logger });
    await server.close();
    // Nest's "Mapped {/mcp, POST} route" lines, as `POST /mcp`.
    return logger.logs.flatMap((line) => /^Mapped \{(\S+), (\w+)\} route/.exec(line)?.slice(1).reverse().join(' ') ?? []).sort();
  };

  it('without auth: the MCP endpoint, its job poll route, HTTP+SSE and the Server Card; no RFC 9728 document', async () => {
    expect(await boot({ name: 'hello', version: '1.0.0' })).toEqual(
      [
        'POST /mcp',
        'GET /mcp',
        'DELETE /mcp',
        'GET /mcp/jobs/:jobId',
        'GET /sse',
        'POST /messages',
        'GET /.well-known/mcp/server-card.json',
        'OPTIONS /.well-known/mcp/server-card.json',
        'GET /mcp/server-card',
        'OPTIONS /mcp/server-card',
      ].sort(),
    );
  });

  it('with ssePath: false and the Server Card off: the MCP endpoint and its job poll route only', async () => {
    expect(await boot({ name: 'hello', version: '1.0.0', ssePath: false, serverCard: { enabled: false } })).toEqual(
      ['POST /mcp', 'GET /mcp', 'DELETE /mcp', 'GET /mcp/jobs/:jobId'].sort(),
    );
  });

  it('with auth.resourceMetadata: the RFC 9728 documents too, at the root and for the path', async () => {
    const routes = await boot({
      name: 'hello',
      version: '1.0.0',
      auth: {
        jwt: { secret: 'hello-routes-e2e-secret-0123456789abcdef' },
        resourceMetadata: { resource: 'https://mcp.example.com/mcp', authorizationServers: ['https://auth.example.com'] },
      },
    });
    expect(routes).toEqual(
      expect.arrayContaining(['GET /.well-known/oauth-protected-resource', 'GET /.well-known/oauth-protected-resource/mcp']),
    );
  });
});
