/** Ticket priorities, lowest first. */
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type Priority = (typeof PRIORITIES)[number];

export const STATUSES = ['open', 'closed'] as const;
export type TicketStatus = (typeof STATUSES)[number];

export interface Comment {
  id: string;
  body: string;
  /** The `sub` of who wrote it. */
  author: string;
  createdAt: string;
}

export interface Ticket {
  id: string;
  title: string;
  body: string;
  priority: Priority;
  tags: string[];
  requester: { email: string; name?: string };
  status: TicketStatus;
  comments: Comment[];
  createdAt: string;
  /** Set when the ticket is closed. */
  resolution?: string;
}
