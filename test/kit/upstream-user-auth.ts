/**
 * What the specs of per-user upstream authorization (`auth: { authorizationCode }` of an upstream) share: the
 * upstream's tool that answers who its token names, the structured answer of a relayed call, and the user's browser
 * that opens a link of the gateway and comes back to its callback.
 */
import { Injectable } from '@nestjs/common';
import type { Client } from '@modelcontextprotocol/client';
import { McpContext, McpTool, type McpToolContext } from '@nest-mcp/core';
import { authorizeOverHttp } from './authorization-server.js';

/** An upstream's `whoami`: the subject, audience and `jti` of the token its call came with. */
@Injectable()
export class WhoAmITools {
  @McpTool({ name: 'whoami', description: 'Who the token of this call names' })
  whoami(@McpContext() context: McpToolContext): { subject: string | null; audience: unknown; jti: unknown } {
    const claims = context.principal?.claims ?? {};
    return { subject: context.principal?.subject ?? null, audience: claims.aud, jti: claims.jti };
  }
}

/** The structured answer of a tool call through the gateway (a success, or an error envelope with its link). */
export type ToolEnvelope = {
  status: string;
  data?: any;
  error?: { code: string; message: string; retryable?: boolean; authorization_url?: string };
};

/** Calls `name` (no arguments) with the official client and answers its structured content. */
export async function callTool(client: Client, name: string): Promise<ToolEnvelope> {
  return (await client.callTool({ name, arguments: {} })).structuredContent as ToolEnvelope;
}

/**
 * Plays `account` in a browser that opens `link`: the provider's login and consent, then the gateway's callback
 * (`redirectUri`), whose answer (a page) it returns.
 */
export async function completeSignIn(link: string, redirectUri: string, account: string): Promise<Response> {
  const back = await authorizeOverHttp(link, redirectUri, account);
  return fetch(back, { redirect: 'manual' });
}
