import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsEmail, IsIn, IsOptional, IsString, Length, MaxLength, ValidateNested } from 'class-validator';
import { PRIORITIES, type Priority } from '../ticket.js';

export class RequesterDto {
  @ApiProperty({ description: 'Where answers go', example: 'ada@example.com' })
  @IsEmail()
  email!: string;

  @ApiPropertyOptional({ description: 'Display name', example: 'Ada Lovelace', maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string;
}

export class CreateTicketDto {
  @ApiProperty({ description: 'One-line summary', example: 'Printer on fire', minLength: 3, maxLength: 120 })
  @IsString()
  @Length(3, 120)
  title!: string;

  @ApiProperty({ description: 'What happened', example: 'Smoke since this morning.', minLength: 1, maxLength: 5000 })
  @IsString()
  @Length(1, 5000)
  body!: string;

  @ApiPropertyOptional({ enum: PRIORITIES, default: 'normal' })
  @IsOptional()
  @IsIn(PRIORITIES)
  priority: Priority = 'normal';

  @ApiPropertyOptional({ type: [String], maxItems: 10, example: ['hardware'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  @Length(1, 30, { each: true })
  tags: string[] = [];

  @ApiProperty({ type: RequesterDto, description: 'Who asks' })
  @IsDefined()
  @ValidateNested()
  @Type(() => RequesterDto)
  requester!: RequesterDto;
}
