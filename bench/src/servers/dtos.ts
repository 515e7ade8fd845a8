import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, IsUUID, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { McpProperty } from '@nest-mcp/core';
import { z } from 'zod';

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

/** The eight fields of {@link Echo8Dto} as a Zod 4 schema (`ours-zod8`): the same rules, validated by Zod. */
export const Echo8Schema = z.object({
  text: z.string().min(1).max(1_000).describe('Text to echo back'),
  title: z.string().max(100).describe('A title'),
  count: z.number().int().min(0).max(1_000).describe('A count'),
  ratio: z.number().min(0).max(1).describe('A ratio'),
  priority: z.enum(PRIORITIES).describe('A priority'),
  enabled: z.boolean().describe('A flag'),
  requestId: z.uuid().describe('A request id'),
  tag: z
    .string()
    .regex(/^[a-z][a-z0-9-]*$/)
    .optional()
    .describe('An optional tag'),
});
