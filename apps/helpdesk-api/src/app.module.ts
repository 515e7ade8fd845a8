import { Module } from '@nestjs/common';
import { McpModule } from '@nest-mcp/core';
import { helpdeskSecret } from './config/helpdesk-secret.js';
import { TicketsController } from './tickets/tickets.controller.js';
import { TicketsModule } from './tickets/tickets.module.js';

/**
 * The helpdesk REST app plus the one import that makes it an MCP server at `/mcp`: its five ticket routes become
 * tools (create_ticket, list_tickets, get_ticket, add_comment, close_ticket) that run through the controller's own
 * guards, ValidationPipe and exception handling, with the caller's token; beside them one native tool,
 * search_tickets (TicketSearchTools, a Zod schema). MCP authentication verifies the same tokens (HS256 secret,
 * `tenant_id`, `scope`).
 */
@Module({
  imports: [
    TicketsModule,
    McpModule.forRootAsync({
      useFactory: () => ({
        name: 'helpdesk',
        version: '1.0.0',
        instructions: 'Support tickets of your tenant: open, list, read, comment on and close them.',
        auth: { jwt: { secret: helpdeskSecret() } },
        sources: { routes: [TicketsController] },
      }),
    }),
  ],
})
export class AppModule {}
