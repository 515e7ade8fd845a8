import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

export class CloseTicketDto {
  @ApiProperty({ description: 'How it was resolved', example: 'Replaced the printer.', minLength: 1, maxLength: 500 })
  @IsString()
  @Length(1, 500)
  resolution!: string;
}
