import { IsNumber, IsOptional, IsString, Max, Min } from 'class-validator';
import { McpProperty } from '@nest-mcp/core';

/** Arguments of `slow_compute`. */
export class SlowComputeArgsDto {
  @McpProperty({ description: 'How long to work, in seconds (0 answers at once)' })
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(600)
  seconds?: number;

  @McpProperty({ description: 'A label echoed in the result' })
  @IsOptional()
  @IsString()
  label?: string;
}

/** Arguments of `confirm_delete`. */
export class ConfirmDeleteArgsDto {
  @McpProperty({ description: 'The file to delete once the user confirms' })
  @IsString()
  filename: string;
}
