import 'reflect-metadata';
import { getMetadataStorage, IsInt, IsOptional, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { readValidationMetadata } from './validation-metadata.reader.js';

describe('readValidationMetadata', () => {
  class BaseDto {
    @IsString()
    @MaxLength(10, { groups: ['admin'] })
    id: string;

    @IsOptional()
    @IsString({ always: false })
    note?: string;
  }
  class MiddleDto extends BaseDto {
    @MinLength(2)
    declare note?: string;

    @IsInt()
    count: number;
  }
  class LeafDto extends MiddleDto {
    @ValidateIf(() => true)
    declare count: number;

    @IsString()
    label: string;
  }
  class UnrelatedDto {
    @IsString()
    id: string;
  }

  it.each([BaseDto, MiddleDto, LeafDto, UnrelatedDto])('returns what getTargetValidationMetadatas returns for %p', (target) => {
    const expected = getMetadataStorage().getTargetValidationMetadatas(target, '', true, false);
    const actual = readValidationMetadata(target);
    expect(actual).toHaveLength(expected.length);
    for (const metadata of expected) expect(actual).toContain(metadata);
    // Own rules come first and keep their registration order.
    const own = expected.filter((metadata) => metadata.target === target);
    expect(actual.slice(0, own.length)).toEqual(own);
  });

  it('drops inherited rules the subclass redefines with the same rule type', () => {
    const noteRules = readValidationMetadata(MiddleDto)
      .filter((metadata) => metadata.propertyName === 'note')
      .map((metadata) => metadata.name);
    // MiddleDto's @MinLength replaces BaseDto's custom rules on `note`; BaseDto's @IsOptional (conditional) stays.
    expect(noteRules).toEqual(['minLength', 'isOptional']);
  });
});
