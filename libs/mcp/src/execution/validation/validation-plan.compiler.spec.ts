import 'reflect-metadata';
import { Transform, Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotEmpty,
  ArrayUnique,
  Equals,
  IsArray,
  IsBoolean,
  IsDateString,
  IsDefined,
  IsDivisibleBy,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsIP,
  IsISO8601,
  IsNegative,
  IsNotEmpty,
  IsNotEmptyObject,
  IsNotIn,
  IsNumber,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  NotEquals,
  Validate,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { argumentValidationMode } from './validation-mode.js';
import { DtoSchemaFactory } from '../../features/tools/schema/dto-schema.factory.js';
import { McpProperty } from '../../features/tools/schema/mcp-property.decorator.js';
import { compileValidationPlan } from './validation-plan.compiler.js';
import type { McpClassRef } from '../../core/class-ref.js';
import { describePlanAgreement, type PlanAgreementCase } from '../../../../../test/kit/validation-agreement.js';

enum Colour {
  Red = 'red',
  Blue = 'blue',
}

enum Level {
  Low = 1,
  High = 2,
}

/** The bench's 8-field DTO (bench/src/servers/dtos.ts): the shape whose cost the plan is for. */
class Echo8Dto {
  @IsString() @Length(1, 1_000) text: string;
  @IsString() @MaxLength(100) title: string;
  @IsInt() @Min(0) @Max(1_000) count: number;
  @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) @Max(1) ratio: number;
  @IsIn(['low', 'medium', 'high', 'critical']) priority: string;
  @IsBoolean() enabled: boolean;
  @IsUUID() requestId: string;
  @IsOptional() @IsString() @Matches(/^[a-z][a-z0-9-]*$/) tag?: string;
}

class FormatsDto {
  @IsOptional() @IsEmail() email?: string;
  @IsOptional() @IsUrl() site?: string;
  @IsOptional() @IsISO8601() at?: string;
  @IsOptional() @IsDateString() day?: string;
  @IsOptional() @IsIP('4') ip?: string;
  @IsOptional() @IsEnum(Colour) colour?: Colour;
  @IsOptional() @IsEnum(Level) level?: Level;
  @IsOptional() @IsNotIn(['root']) user?: string;
  @IsOptional() @Equals('yes') confirm?: string;
  @IsOptional() @NotEquals(0) divisor?: number;
  @IsOptional() @IsPositive() positive?: number;
  @IsOptional() @IsNegative() negative?: number;
  @IsOptional() @IsDivisibleBy(5) step?: number;
  @IsOptional() @MinLength(2) @MaxLength(4) code?: string;
  @IsNotEmpty({ message: 'give $property a value, not "$value"' }) name: string;
}

class TagsDto {
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(3) @ArrayUnique() @IsString({ each: true }) @MaxLength(5, { each: true }) tags: string[];
  @IsOptional() @ArrayNotEmpty() @IsInt({ each: true }) counts?: number[];
  @IsOptional() @IsObject() @IsNotEmptyObject() meta?: Record<string, unknown>;
  @Allow() anything?: unknown;
  @IsDefined() present: unknown;
}

class PointDto {
  @IsNumber() lat: number;
  @IsNumber() lon: number;
  @IsOptional() @IsString() label?: string;
}

class RouteDto {
  @ValidateNested() @Type(() => PointDto) from: PointDto;
  @IsArray() @ValidateNested({ each: true }) @Type(() => PointDto) stops: PointDto[];
  @IsOptional() @ValidateNested() @Type(() => PointDto) to?: PointDto;
}

class TreeDto {
  @IsString() name: string;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => TreeDto) children?: TreeDto[];
}

class BaseDto {
  @IsString() id: string;
  @IsOptional() @IsInt() version: number = 1;
}

class DerivedDto extends BaseDto {
  @IsString() @MinLength(3) declare id: string;
  @McpProperty({ nullable: true }) @IsOptional() @IsString() note?: string | null;
}

const POINT = { lat: 1.5, lon: -2 };

/**
 * The fixtures the agreement runs on (the sample app's DTOs run in test/validation/), each with valid arguments the
 * generated inputs start from, so that whole valid objects and objects with one fault come up often.
 */
const AGREEING: readonly PlanAgreementCase[] = [
  [
    Echo8Dto,
    {
      text: 'hello',
      title: 'A title',
      count: 42,
      ratio: 0.5,
      priority: 'high',
      enabled: true,
      requestId: '3b241101-e2bb-4255-8caf-4136c566a962',
      tag: 'bench-tag',
    },
  ],
  [
    FormatsDto,
    {
      email: 'a@b.co',
      site: 'https://example.com/x',
      at: '2026-01-02T03:04:05Z',
      day: '2026-01-02',
      ip: '127.0.0.1',
      colour: 'red',
      level: 2,
      user: 'bob',
      confirm: 'yes',
      divisor: 3,
      positive: 1,
      negative: -1,
      step: 10,
      code: 'abc',
      name: 'n',
    },
  ],
  [
    TagsDto,
    { tags: ['a', 'b'], counts: [1, 2], meta: { toString: 1, hasOwnProperty: 2, k: [{ valueOf: 1 }] }, anything: { a: [1] }, present: 0 },
  ],
  [RouteDto, { from: POINT, stops: [POINT, { lat: 0, lon: 0, label: 'x' }], to: POINT }],
  [TreeDto, { name: 'root', children: [{ name: 'a', children: [] }, { name: 'b' }] }],
  [DerivedDto, { id: 'abc', version: 2, note: null }],
];

describe('compileValidationPlan', () => {
  describePlanAgreement(AGREEING);

  it('builds the instance class-transformer builds: defaults kept, nested classes, key order', () => {
    const { plan } = compileValidationPlan(RouteDto);
    const outcome = plan?.({ stops: [{ lon: 2, lat: 1 }], from: { lat: 0, lon: 0 } });
    expect(outcome?.failures).toEqual([]);
    expect(outcome?.value).toBeInstanceOf(RouteDto);
    expect(outcome?.value.from).toBeInstanceOf(PointDto);
    expect((outcome?.value.stops as PointDto[])[0]).toBeInstanceOf(PointDto);
    expect(Object.keys((outcome?.value.stops as PointDto[])[0])).toEqual(['lat', 'lon', 'label']);
    const derived = compileValidationPlan(DerivedDto).plan?.({ id: 'abcd' })?.value;
    expect(derived).toBeInstanceOf(DerivedDto);
    // The base class's fields first, as `new DerivedDto()` defines them; the default kept.
    expect(Object.entries(derived ?? {})).toEqual([
      ['id', 'abcd'],
      ['version', 1],
    ]);
  });

  it('reports class-validator messages by dotted path, nested and array items included', () => {
    const { plan } = compileValidationPlan(RouteDto);
    expect(plan?.({ from: { lat: 'x', lon: 1 }, stops: [{ lat: 1, lon: 1 }, 7], extra: 1 })?.failures).toEqual([
      { path: 'extra', reasons: ['property extra should not exist'] },
      { path: 'from.lat', reasons: ['lat must be a number conforming to the specified constraints'] },
      { path: 'stops.1', reasons: ['each value in nested property stops must be either object or array'] },
    ]);
  });

  it('leaves an object with an own constructor key to the reference path', () => {
    expect(compileValidationPlan(TagsDto).plan?.({ tags: ['a'], present: 1, meta: JSON.parse('{"constructor":{"a":1}}') })).toBeUndefined();
  });

  describe('falls back, with the reason, for what it does not reproduce', () => {
    @ValidatorConstraint({ name: 'even' })
    class Even implements ValidatorConstraintInterface {
      validate(value: unknown): boolean {
        return typeof value === 'number' && value % 2 === 0;
      }
    }
    class CustomDto {
      @Validate(Even) n: number;
    }
    class TransformDto {
      @Transform(({ value }) => String(value).trim()) @IsString() name: string;
    }
    class ConvertingDto {
      @Type(() => Number) @IsInt() n: number;
    }
    class GroupsDto {
      @IsString({ groups: ['admin'] }) name: string;
    }
    class ConditionalDto {
      @ValidateIf((object: { kind?: string }) => object.kind === 'x') @IsString() name: string;
    }
    class UntypedNestedDto {
      @ValidateNested() inner: PointDto;
    }
    class EmptyDto {}

    it.each([
      [CustomDto, "CustomDto.n: custom validator 'Even'"],
      [TransformDto, 'TransformDto uses @Transform'],
      [ConvertingDto, 'ConvertingDto.n: @Type() without @ValidateNested() converts the value'],
      [GroupsDto, 'GroupsDto.name: validation groups'],
      [ConditionalDto, 'ConditionalDto.name: @ValidateIf'],
      [UntypedNestedDto, 'UntypedNestedDto.inner: @ValidateNested() without @Type()'],
      [EmptyDto, 'EmptyDto has no validation rules'],
    ] as [McpClassRef, string][])('%p', (dto, reason) => {
      expect(compileValidationPlan(dto)).toEqual({ reason });
      expect(argumentValidationMode(dto, new DtoSchemaFactory().forClass(dto)).plan).toBeUndefined();
    });
  });
});
