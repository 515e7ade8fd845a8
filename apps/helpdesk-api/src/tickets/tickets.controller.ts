import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../auth/current-user.decorator.js';
import type { HelpdeskUser } from '../auth/helpdesk-user.js';
import { JwtAuthGuard } from '../auth/jwt-auth.guard.js';
import { RequireScope, ScopesGuard } from '../auth/scopes.guard.js';
import { AddCommentDto } from './dto/add-comment.dto.js';
import { CloseTicketDto } from './dto/close-ticket.dto.js';
import { CreateTicketDto } from './dto/create-ticket.dto.js';
import { ListTicketsQuery } from './dto/list-tickets.query.js';
import type { Comment, Ticket } from './ticket.js';
import { TicketsStore } from './tickets.store.js';

/** The helpdesk's REST API: an ordinary Nest controller, written without MCP in mind. */
@ApiTags('tickets')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard, ScopesGuard)
@Controller('tickets')
export class TicketsController {
  constructor(private readonly store: TicketsStore) {}

  @ApiOperation({ summary: 'Open a support ticket' })
  @RequireScope('tickets:write')
  @Post()
  createTicket(@CurrentUser() user: HelpdeskUser, @Body() dto: CreateTicketDto): Ticket {
    return this.store.create(user.tenantId, dto);
  }

  @ApiOperation({ summary: "List the tenant's tickets, newest last, a page at a time" })
  @RequireScope('tickets:read')
  @Get()
  listTickets(@CurrentUser() user: HelpdeskUser, @Query() query: ListTicketsQuery): { items: Ticket[]; nextCursor: string | null } {
    return this.store.list(user.tenantId, query);
  }

  @ApiOperation({ summary: 'One ticket with its comments' })
  @ApiParam({ name: 'id', description: 'Ticket id (tkt_…)' })
  @RequireScope('tickets:read')
  @Get(':id')
  getTicket(@CurrentUser() user: HelpdeskUser, @Param('id') id: string): Ticket {
    return this.store.get(user.tenantId, id);
  }

  @ApiOperation({ summary: 'Comment on a ticket' })
  @ApiParam({ name: 'id', description: 'Ticket id (tkt_…)' })
  @RequireScope('tickets:write')
  @Post(':id/comments')
  addComment(@CurrentUser() user: HelpdeskUser, @Param('id') id: string, @Body() dto: AddCommentDto): Comment {
    return this.store.comment(user.tenantId, id, user.sub, dto);
  }

  @ApiOperation({ summary: 'Close a ticket with a resolution (409 when already closed)' })
  @ApiParam({ name: 'id', description: 'Ticket id (tkt_…)' })
  @RequireScope('tickets:admin')
  @HttpCode(200)
  @Post(':id/close')
  closeTicket(@CurrentUser() user: HelpdeskUser, @Param('id') id: string, @Body() dto: CloseTicketDto): Ticket {
    return this.store.close(user.tenantId, id, dto.resolution);
  }
}
