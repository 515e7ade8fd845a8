import { Module } from '@nestjs/common';
import { TicketSearchTools } from './ticket-search.tools.js';
import { TicketsController } from './tickets.controller.js';
import { TicketsStore } from './tickets.store.js';

@Module({ controllers: [TicketsController], providers: [TicketsStore, TicketSearchTools] })
export class TicketsModule {}
