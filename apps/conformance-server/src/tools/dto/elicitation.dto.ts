import { IsString } from 'class-validator';
import { McpProperty } from '@nest-mcp/core';

export class ElicitationArgsDto {
  @McpProperty({ description: 'The message to show the user' })
  @IsString()
  message: string;
}
