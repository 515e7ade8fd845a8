import { Injectable } from '@nestjs/common';
import { McpArgs, McpTenant, McpTool } from '@nest-mcp/core';
import { z } from 'zod';
import { STATUSES } from './ticket.js';
import { TicketsStore } from './tickets.store.js';

/** The arguments of `search_tickets`, as a Zod schema: its JSON Schema is what `tools/list` shows. */
export const SearchTicketsInput = z.object({
  query: z.string().min(2).max(200).describe('Text to find in the title or body (case-insensitive)'),
  status: z.enum(STATUSES).optional().describe('Only tickets with this status'),
  limit: z.number().int().min(1).max(50).default(10).describe('At most this many tickets'),
});
export type SearchTicketsArgs = z.infer<typeof SearchTicketsInput>;

const SearchTicketsOutput = z.object({
  items: z.array(z.object({ id: z.string(), title: z.string(), status: z.enum(STATUSES) })),
  total: z.number().int(),
});

/**
 * A tool with no REST route behind it, written for MCP: the search a model needs before it opens or comments on a
 * ticket. The tenant is the verified token's `tenant_id`, as the controller's `@CurrentUser()` reads it.
 */
@Injectable()
export class TicketSearchTools {
  constructor(private readonly store: TicketsStore) {}

  @McpTool({
    name: 'search_tickets',
    description: "Search the tenant's tickets by text in their title or body; the matches, oldest first, and how many there are",
    input: SearchTicketsInput,
    output: SearchTicketsOutput,
    annotations: { readOnlyHint: true },
    scopes: ['tickets:read'],
  })
  searchTickets(@McpArgs() args: SearchTicketsArgs, @McpTenant() tenant: string): z.infer<typeof SearchTicketsOutput> {
    return this.store.search(tenant, args);
  }
}
