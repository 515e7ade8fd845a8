import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  Allow,
  IsInt,
  IsOptional,
  IsString,
  Max,
  Min,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { McpProperty } from '../../features/tools/schema/mcp-property.decorator.js';
import { DtoSchemaFactory } from '../../features/tools/schema/dto-schema.factory.js';
import { validateArguments } from './dto-validation.js';
import { argumentValidationMode, type ArgumentValidationMode } from './validation-mode.js';

@ValidatorConstraint({ name: 'notNull' })
class NotNull implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return value !== null;
  }
}

class PlaceDto {
  @IsString() city: string;
  @IsOptional() @IsString() country?: string;
}

class ForecastDto {
  @IsString() city: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(14)
  days: number = 3;

  @McpProperty({ nullable: true })
  @IsOptional()
  @IsString()
  note?: string | null;

  @McpProperty({ nullable: true })
  @IsString()
  label: string | null = 'none';

  /** No type the schema can state: the schema says nothing about null, the custom rule decides. */
  @Allow()
  @Validate(NotNull)
  extra?: unknown;

  @IsOptional()
  @ValidateNested()
  @Type(() => PlaceDto)
  place?: PlaceDto;
}

const mode: ArgumentValidationMode = argumentValidationMode(ForecastDto, new DtoSchemaFactory().forClass(ForecastDto));

describe('validateArguments', () => {
  it('refuses null for an optional property the schema types without null, naming the field', async () => {
    expect(await validateArguments(ForecastDto, { city: 'Paris', days: null }, mode)).toEqual({
      valid: false,
      fields: ['days'],
      message: 'Invalid arguments: days: days must not be null',
    });
  });

  it('applies the default when the property is absent', async () => {
    expect(await validateArguments(ForecastDto, { city: 'Paris' }, mode)).toMatchObject({
      valid: true,
      value: { city: 'Paris', days: 3, label: 'none' },
    });
  });

  it('accepts null where the schema declares it, even over a rule that rejects null', async () => {
    expect(await validateArguments(ForecastDto, { city: 'Paris', note: null, label: null }, mode)).toMatchObject({
      valid: true,
      value: { note: null, label: null },
    });
  });

  it('leaves null to the rules where the schema says nothing about it', async () => {
    expect(await validateArguments(ForecastDto, { city: 'Paris', extra: null }, mode)).toMatchObject({ valid: false, fields: ['extra'] });
    expect(await validateArguments(ForecastDto, { city: 'Paris', extra: 1 }, mode)).toMatchObject({ valid: true });
  });

  it('checks nested DTOs, and reports nulls with the other failures', async () => {
    expect(await validateArguments(ForecastDto, { city: 1, place: { city: 'Paris', country: null } }, mode)).toEqual({
      valid: false,
      fields: ['place.country', 'city'],
      message: 'Invalid arguments: place.country: place.country must not be null, city: city must be a string',
    });
  });

  it('gives the same verdicts on the sync and async paths', async () => {
    for (const raw of [
      { city: 'Paris', days: null },
      { city: 'Paris', label: null },
      { city: 'Paris', place: { city: null } },
    ]) {
      expect(await validateArguments(ForecastDto, raw, { ...mode, sync: true })).toEqual(
        await validateArguments(ForecastDto, raw, { ...mode, sync: false }),
      );
    }
  });

  it('names the cause when the DTO has no class-validator rule, where class-validator names an "undefined" property', async () => {
    class NoRulesDto {
      @McpProperty({ description: 'Who to greet' })
      name: string;
    }
    for (const sync of [true, false]) {
      expect(await validateArguments(NoRulesDto, { name: 'Ada', age: 36 }, { sync })).toEqual({
        valid: false,
        fields: ['name', 'age'],
        message:
          'Invalid arguments: the DTO NoRulesDto has no class-validator decorators, so every property is unknown (name, age); ' +
          'the tool needs a rule on each property (@IsString(), @IsOptional(), …).',
      });
    }
    expect(await validateArguments(NoRulesDto, {})).toMatchObject({ valid: false, fields: [] });
  });

  it('without a mode (prompt arguments, which are checked to be strings first), runs class-validator alone', async () => {
    expect(await validateArguments(ForecastDto, { city: 'Paris', days: null })).toMatchObject({ valid: true });
  });
});
