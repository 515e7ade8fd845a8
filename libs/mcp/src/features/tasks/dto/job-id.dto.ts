import { IsString, Length } from 'class-validator';
import { McpProperty } from '../../tools/schema/mcp-property.decorator.js';

/** Arguments of the built-in job tools. */
export class JobIdDto {
  @McpProperty({ description: 'The job_id from a pending envelope' })
  @IsString()
  @Length(1, 200)
  job_id: string;
}
