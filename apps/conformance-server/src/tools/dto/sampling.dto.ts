import { IsString } from 'class-validator';
import { McpProperty } from '@nest-mcp/core';

export class SamplingArgsDto {
  @McpProperty({ description: 'The prompt to send to the client model' })
  @IsString()
  prompt: string;
}
