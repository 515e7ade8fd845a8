import { BadRequestException, ConflictException, HttpException, HttpStatus, Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AddCommentDto } from './dto/add-comment.dto.js';
import type { CreateTicketDto } from './dto/create-ticket.dto.js';
import type { ListTicketsQuery } from './dto/list-tickets.query.js';
import type { Comment, Ticket, TicketStatus } from './ticket.js';

/** Bounds of the in-memory store, per tenant and per ticket. */
const MAX_TICKETS_PER_TENANT = 1000;
const MAX_COMMENTS_PER_TICKET = 200;

/** Tickets in memory, one map per tenant: a tenant never reads another's tickets (their ids are 404 to it). */
@Injectable()
export class TicketsStore {
  private readonly tenants = new Map<string, Map<string, Ticket>>();

  create(tenant: string, dto: CreateTicketDto): Ticket {
    const tickets = this.tenantTickets(tenant);
    if (tickets.size >= MAX_TICKETS_PER_TENANT)
      throw new HttpException('Ticket limit reached for this tenant', HttpStatus.TOO_MANY_REQUESTS);
    const ticket: Ticket = {
      id: `tkt_${randomUUID()}`,
      title: dto.title,
      body: dto.body,
      priority: dto.priority,
      tags: [...dto.tags],
      requester: { email: dto.requester.email, ...(dto.requester.name !== undefined && { name: dto.requester.name }) },
      status: 'open',
      comments: [],
      createdAt: new Date().toISOString(),
    };
    tickets.set(ticket.id, ticket);
    return ticket;
  }

  /** One page in creation order; `nextCursor` is the last id of the page, null on the last one. */
  list(tenant: string, query: ListTicketsQuery): { items: Ticket[]; nextCursor: string | null } {
    const matching = [...this.tenantTickets(tenant).values()].filter(
      (ticket) => (!query.status || ticket.status === query.status) && (!query.priority || ticket.priority === query.priority),
    );
    let start = 0;
    if (query.cursor !== undefined) {
      const index = matching.findIndex((ticket) => ticket.id === query.cursor);
      if (index < 0) throw new BadRequestException('cursor is not a cursor of this listing');
      start = index + 1;
    }
    const items = matching.slice(start, start + query.limit);
    const more = start + query.limit < matching.length;
    return { items, nextCursor: more ? items[items.length - 1]!.id : null };
  }

  /**
   * The tenant's tickets whose title or body contains `query`, case-insensitively (and of `status` when given): the
   * first `limit` in creation order, and how many match in all.
   */
  search(
    tenant: string,
    { query, status, limit }: { query: string; status?: TicketStatus; limit: number },
  ): { items: Pick<Ticket, 'id' | 'title' | 'status'>[]; total: number } {
    const needle = query.toLowerCase();
    const matching = [...this.tenantTickets(tenant).values()].filter(
      (ticket) =>
        (!status || ticket.status === status) &&
        (ticket.title.toLowerCase().includes(needle) || ticket.body.toLowerCase().includes(needle)),
    );
    const items = matching.slice(0, limit).map(({ id, title, status: current }) => ({ id, title, status: current }));
    return { items, total: matching.length };
  }

  get(tenant: string, id: string): Ticket {
    const ticket = this.tenantTickets(tenant).get(id);
    if (!ticket) throw new NotFoundException(`Ticket ${id} not found`);
    return ticket;
  }

  comment(tenant: string, id: string, author: string, dto: AddCommentDto): Comment {
    const ticket = this.get(tenant, id);
    if (ticket.comments.length >= MAX_COMMENTS_PER_TICKET)
      throw new HttpException('Comment limit reached for this ticket', HttpStatus.TOO_MANY_REQUESTS);
    const comment: Comment = { id: `cmt_${randomUUID()}`, body: dto.body, author, createdAt: new Date().toISOString() };
    ticket.comments.push(comment);
    return comment;
  }

  close(tenant: string, id: string, resolution: string): Ticket {
    const ticket = this.get(tenant, id);
    if (ticket.status === 'closed') throw new ConflictException(`Ticket ${id} is already closed`);
    ticket.status = 'closed';
    ticket.resolution = resolution;
    return ticket;
  }

  private tenantTickets(tenant: string): Map<string, Ticket> {
    let tickets = this.tenants.get(tenant);
    if (!tickets) this.tenants.set(tenant, (tickets = new Map()));
    return tickets;
  }
}
