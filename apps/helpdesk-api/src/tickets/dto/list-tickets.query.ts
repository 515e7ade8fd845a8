import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { PRIORITIES, STATUSES, type Priority, type TicketStatus } from '../ticket.js';

export class ListTicketsQuery {
  @ApiPropertyOptional({ enum: STATUSES, description: 'Only tickets with this status' })
  @IsOptional()
  @IsIn(STATUSES)
  status?: TicketStatus;

  @ApiPropertyOptional({ enum: PRIORITIES, description: 'Only tickets with this priority' })
  @IsOptional()
  @IsIn(PRIORITIES)
  priority?: Priority;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20, description: 'Page size' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 20;

  @ApiPropertyOptional({ description: 'nextCursor of the previous page' })
  @IsOptional()
  @IsString()
  cursor?: string;
}
