import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, IsUUID, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { McpProperty } from '@nest-mcp/core';

/** `{ text: string }`, as the other stacks' zod `z.object({ text: z.string() })`. */
export class EchoDto {
  @McpProperty({ description: 'Text to echo back' })
  @IsString()
  text: string;
}

export const PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;

/** Eight validated fields: strings, numbers, an enum, a boolean, a uuid, a pattern and an optional. */
export class Echo8Dto {
  @McpProperty({ description: 'Text to echo back' })
  @IsString()
  @Length(1, 1_000)
  text: string;

  @McpProperty({ description: 'A title' })
  @IsString()
  @MaxLength(100)
  title: string;

  @McpProperty({ description: 'A count' })
  @IsInt()
  @Min(0)
  @Max(1_000)
  count: number;

  @McpProperty({ description: 'A ratio' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  ratio: number;

  @McpProperty({ description: 'A priority' })
  @IsIn(PRIORITIES)
  priority: (typeof PRIORITIES)[number];

  @McpProperty({ description: 'A flag' })
  @IsBoolean()
  enabled: boolean;

  @McpProperty({ description: 'A request id' })
  @IsUUID()
  requestId: string;

  @McpProperty({ description: 'An optional tag' })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z][a-z0-9-]*$/)
  tag?: string;
}
