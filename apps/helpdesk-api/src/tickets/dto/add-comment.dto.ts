import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

export class AddCommentDto {
  @ApiProperty({ description: 'The comment', example: 'Fire is out.', minLength: 1, maxLength: 2000 })
  @IsString()
  @Length(1, 2000)
  body!: string;
}
