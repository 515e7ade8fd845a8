import 'reflect-metadata';
import { jest } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsDate,
  IsDateString,
  IsDefined,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsISO8601,
  IsNegative,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsPhoneNumber,
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
  Validate,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { McpDto } from './mcp-dto.decorator.js';
import { McpProperty } from './mcp-property.decorator.js';
import { MCP_DTO_METADATA, MCP_PROPERTY_METADATA, SWAGGER_API_MODEL_PROPERTIES } from '../../../core/mcp.constants.js';
import { validateArguments } from '../../../execution/validation/dto-validation.js';
import { argumentValidationMode } from '../../../execution/validation/validation-mode.js';
import { DtoSchemaFactory } from './dto-schema.factory.js';
import type { JsonSchema } from '../../../core/json-schema.types.js';
import { McpSchemaError } from './schema-build.error.js';
import type { McpClassRef } from '../../../core/class-ref.js';

type DtoClass = new () => object;

// Format checks as JSON Schema validators implement them (patterned on ajv-formats' "full" mode), deliberately not
// class-validator's own functions: the agreement tests compare two independent implementations.
const FORMATS = {
  email:
    /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i,
  uri: /^[a-z][a-z0-9+.-]*:[^\s]*$/i,
  uuid: /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i,
  'date-time':
    /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[tT ](?:[01]\d|2[0-3]):[0-5]\d:(?:[0-5]\d|60)(?:\.\d+)?(?:[zZ]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/,
};

function schemaOf(dto: McpClassRef | undefined, debug?: (message: string) => void): JsonSchema {
  return new DtoSchemaFactory({ debug }).forClass(dto);
}

function objectSchema(properties: JsonSchema, required: string[] = []): JsonSchema {
  return { type: 'object', properties, ...(required.length > 0 && { required }), additionalProperties: false };
}

/**
 * Runs every sample through ajv (with the generated schema) and through the server's argument validation (the null
 * check compiled from that schema, then class-transformer + class-validator, as the library does on `tools/call`),
 * and expects both to accept the `accept` samples and both to reject the `reject` ones. Null cases come for free:
 * each accepted sample is also sent with `null` in every place it could hold one (every declared root property,
 * present or not, and every member and array item of the sample), and both sides must give the same verdict there.
 */
async function expectAgreement(dto: DtoClass, samples: { accept: object[]; reject: object[] }): Promise<void> {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, formats: FORMATS });
  const schema = schemaOf(dto);
  const validateSchema = ajv.compile(schema);
  // The mode the tool explorer decides at boot, and the function tools/call runs (execution/tool-call.runner.ts).
  const mode = argumentValidationMode(dto, schema);
  const verdict = async (sample: object) => ({
    sample,
    ajv: validateSchema(sample),
    classValidator: (await validateArguments(dto, sample as Record<string, unknown>, mode)).valid,
  });
  const verdicts = (list: object[]) => Promise.all(list.map(verdict));
  expect(await verdicts(samples.accept)).toEqual(samples.accept.map((sample) => ({ sample, ajv: true, classValidator: true })));
  expect(await verdicts(samples.reject)).toEqual(samples.reject.map((sample) => ({ sample, ajv: false, classValidator: false })));
  const rootProperties = Object.keys((schema.properties as JsonSchema | undefined) ?? {});
  const nullSamples = samples.accept.flatMap((sample) => withNulls(sample, rootProperties));
  const disagreements = (await verdicts(nullSamples)).filter((result) => result.ajv !== result.classValidator);
  expect(disagreements).toEqual([]);
}

/** Copies of `sample` with one `null` each: at every root property in `rootProperties`, and at every place inside `sample`. */
function withNulls(sample: object, rootProperties: readonly string[]): object[] {
  const results: object[] = rootProperties.map((name) => ({ ...sample, [name]: null }));
  const visit = (value: unknown, replace: (replacement: unknown) => object) => {
    if (value === null || typeof value !== 'object') return;
    const entries = Array.isArray(value) ? value.map((item, index) => [index, item] as const) : Object.entries(value);
    for (const [key, member] of entries) {
      const replaceMember = (replacement: unknown) =>
        replace(Array.isArray(value) ? value.map((item, index) => (index === key ? replacement : item)) : { ...value, [key]: replacement });
      // Root members are already covered by rootProperties (when declared); undeclared ones are errors either way.
      if (value !== sample && member !== null) results.push(replaceMember(null));
      visit(member, replaceMember);
    }
  };
  visit(sample, (replacement) => replacement as object);
  return results;
}

describe('DtoSchemaFactory', () => {
  describe('type checkers', () => {
    it('maps @IsString to type string', async () => {
      class Dto {
        @IsString()
        name: string;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ name: { type: 'string' } }, ['name']));
      await expectAgreement(Dto, {
        accept: [{ name: 'a' }, { name: '' }],
        reject: [{}, { name: 1 }, { name: null }, { name: 'a', extra: 1 }],
      });
    });

    it('maps @IsNumber to type number', async () => {
      class Dto {
        @IsNumber()
        price: number;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ price: { type: 'number' } }, ['price']));
      await expectAgreement(Dto, { accept: [{ price: 1.5 }, { price: -3 }], reject: [{}, { price: '1' }, { price: true }] });
    });

    it('maps @IsInt to type integer, also next to @IsNumber', async () => {
      class Dto {
        @IsInt()
        count: number;

        @IsNumber()
        @IsInt()
        both: number;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ count: { type: 'integer' }, both: { type: 'integer' } }, ['count', 'both']));
      await expectAgreement(Dto, {
        accept: [{ count: 3, both: -1 }],
        reject: [
          { count: 1.5, both: 1 },
          { count: 1, both: 2.5 },
          { count: '1', both: 1 },
        ],
      });
    });

    it('maps @IsBoolean to type boolean', async () => {
      class Dto {
        @IsBoolean()
        enabled: boolean;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ enabled: { type: 'boolean' } }, ['enabled']));
      await expectAgreement(Dto, { accept: [{ enabled: true }, { enabled: false }], reject: [{}, { enabled: 'true' }, { enabled: 0 }] });
    });

    it('maps @IsObject to type object', async () => {
      class Dto {
        @IsObject()
        metadata: Record<string, unknown>;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ metadata: { type: 'object' } }, ['metadata']));
      await expectAgreement(Dto, {
        accept: [{ metadata: {} }, { metadata: { a: 1 } }],
        reject: [{}, { metadata: 'x' }, { metadata: [1] }, { metadata: null }],
      });
    });
  });

  describe('enumerations', () => {
    enum Unit {
      Metric = 'metric',
      Imperial = 'imperial',
    }

    enum Priority {
      Low = 1,
      High = 2,
    }

    it('maps a string @IsEnum to enum of strings with type string', async () => {
      class Dto {
        @IsEnum(Unit)
        unit: Unit;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ unit: { type: 'string', enum: ['metric', 'imperial'] } }, ['unit']));
      await expectAgreement(Dto, {
        accept: [{ unit: 'metric' }, { unit: 'imperial' }],
        reject: [{}, { unit: 'Metric' }, { unit: 'kelvin' }, { unit: 1 }],
      });
    });

    it('maps a numeric @IsEnum to its numeric values only, with type integer', async () => {
      class Dto {
        @IsEnum(Priority)
        priority: Priority;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ priority: { type: 'integer', enum: [1, 2] } }, ['priority']));
      // class-validator also accepts the reverse-mapped keys ('Low', 'High'); the schema deliberately does not offer them.
      await expectAgreement(Dto, {
        accept: [{ priority: 1 }, { priority: 2 }],
        reject: [{}, { priority: 3 }, { priority: 'Medium' }, { priority: 1.5 }],
      });
    });

    it('maps @IsIn to enum with the values type', async () => {
      class Dto {
        @IsIn(['asc', 'desc'])
        order: string;

        @IsIn([10, 25, 50])
        pageSize: number;
      }
      expect(schemaOf(Dto)).toEqual(
        objectSchema({ order: { type: 'string', enum: ['asc', 'desc'] }, pageSize: { type: 'integer', enum: [10, 25, 50] } }, [
          'order',
          'pageSize',
        ]),
      );
      await expectAgreement(Dto, {
        accept: [
          { order: 'asc', pageSize: 10 },
          { order: 'desc', pageSize: 50 },
        ],
        reject: [{ order: 'up', pageSize: 10 }, { order: 'asc', pageSize: 11 }, { order: 'asc', pageSize: '10' }, { order: 'asc' }],
      });
    });
  });

  describe('presence', () => {
    it('drops @IsOptional properties from required', async () => {
      class Dto {
        @IsString()
        city: string;

        @IsOptional()
        @IsString()
        country?: string;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ city: { type: 'string' }, country: { type: 'string' } }, ['city']));
      await expectAgreement(Dto, {
        accept: [{ city: 'Paris' }, { city: 'Paris', country: 'FR' }],
        reject: [{}, { country: 'FR' }, { city: 'Paris', country: 3 }],
      });
    });

    it('requires @IsDefined properties, and @IsOptional wins over @IsDefined as in class-validator', async () => {
      class Dto {
        @IsDefined()
        @IsString()
        id: string;

        @IsOptional()
        @IsDefined()
        @IsString()
        note?: string;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ id: { type: 'string' }, note: { type: 'string' } }, ['id']));
      await expectAgreement(Dto, { accept: [{ id: 'a' }, { id: 'a', note: 'b' }], reject: [{}, { note: 'b' }] });
    });

    it('keeps properties whose only metadata is @IsOptional or @Allow, typed from design:type', async () => {
      class Dto {
        @IsOptional()
        nickname?: string;

        @Allow()
        score: number;

        // `declare`: with define semantics (ES2022+ targets) a plain field is an own property of every instance,
        // which forbidNonWhitelisted would then reject whatever the input.
        declare internal: string;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ nickname: { type: 'string' }, score: { type: 'number' } }));
      await expectAgreement(Dto, { accept: [{}, { nickname: 'x', score: 3 }], reject: [{ internal: 'x' }] });
    });

    it('ignores validation groups, like class-validator does when no group is requested', async () => {
      class Dto {
        @IsString({ groups: ['admin'] })
        @MaxLength(5)
        name: string;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ name: { type: 'string', maxLength: 5 } }, ['name']));
      await expectAgreement(Dto, { accept: [{ name: 'abc' }], reject: [{}, { name: 'abcdef' }, { name: 1 }] });
    });
  });

  describe('strings', () => {
    it('maps @IsNotEmpty on a string to minLength 1', async () => {
      class Dto {
        @IsString()
        @IsNotEmpty()
        query: string;

        @IsNotEmpty()
        @IsInt()
        page: number;
      }
      expect(schemaOf(Dto)).toEqual(
        objectSchema({ query: { type: 'string', minLength: 1 }, page: { type: 'integer' } }, ['query', 'page']),
      );
      await expectAgreement(Dto, {
        accept: [{ query: 'a', page: 0 }],
        reject: [{ query: '', page: 1 }, { page: 1 }, { query: 'a', page: null }],
      });
    });

    it('maps @MinLength and @MaxLength, keeping the stricter bound', async () => {
      class Dto {
        @IsString()
        @IsNotEmpty()
        @MinLength(3)
        @MaxLength(10)
        @MaxLength(8)
        name: string;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ name: { type: 'string', minLength: 3, maxLength: 8 } }, ['name']));
      await expectAgreement(Dto, {
        accept: [{ name: 'abc' }, { name: 'abcdefgh' }],
        reject: [{ name: 'ab' }, { name: 'abcdefghi' }, { name: 12345 }],
      });
    });

    it('maps @Length to minLength and maxLength, and implies type string', async () => {
      class Dto {
        @Length(2, 4)
        code: unknown;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ code: { type: 'string', minLength: 2, maxLength: 4 } }, ['code']));
      await expectAgreement(Dto, {
        accept: [{ code: 'ab' }, { code: 'abcd' }],
        reject: [{}, { code: 'a' }, { code: 'abcde' }, { code: 12 }],
      });
    });

    it('maps @Matches to pattern (the regex source)', async () => {
      class Dto {
        @IsString()
        @Matches(/^[a-z]+-\d{2}$/)
        slug: string;

        @Matches('^[A-Z]{3}$')
        currency: string;
      }
      expect(schemaOf(Dto)).toEqual(
        objectSchema({ slug: { type: 'string', pattern: '^[a-z]+-\\d{2}$' }, currency: { type: 'string', pattern: '^[A-Z]{3}$' } }, [
          'slug',
          'currency',
        ]),
      );
      await expectAgreement(Dto, {
        accept: [{ slug: 'abc-12', currency: 'EUR' }],
        reject: [
          { slug: 'abc-1', currency: 'EUR' },
          { slug: 'abc-12', currency: 'eur' },
          { slug: 'ABC-12', currency: 'EUR' },
        ],
      });
    });

    it('drops regex flags JSON Schema cannot express, with a debug message', () => {
      class Dto {
        @Matches(/^abc$/i)
        word: string;

        @Matches('^x$', 'm')
        line: string;
      }
      const debug = jest.fn();
      expect(schemaOf(Dto, debug)).toEqual(
        objectSchema({ word: { type: 'string', pattern: '^abc$' }, line: { type: 'string', pattern: '^x$' } }, ['word', 'line']),
      );
      expect(debug.mock.calls).toEqual([
        [expect.stringMatching(/^Dto\.word: @Matches flag\(s\) "i"/)],
        [expect.stringMatching(/^Dto\.line: @Matches flag\(s\) "m"/)],
      ]);
    });

    it('omits a pattern that is invalid under the unicode flag, with a debug message', () => {
      class Dto {
        @Matches(/^[\w-.]+$/)
        handle: string;
      }
      const debug = jest.fn();
      expect(schemaOf(Dto, debug)).toEqual(objectSchema({ handle: { type: 'string' } }, ['handle']));
      expect(debug).toHaveBeenCalledWith(expect.stringContaining('Dto.handle: @Matches pattern'));
    });

    it('maps @IsEmail to format email', async () => {
      class Dto {
        @IsEmail()
        email: string;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ email: { type: 'string', format: 'email' } }, ['email']));
      await expectAgreement(Dto, {
        accept: [{ email: 'ada@example.com' }],
        reject: [{}, { email: 'ada' }, { email: 'ada@localhost' }, { email: 42 }],
      });
    });

    it('maps @IsUrl to format uri', async () => {
      class Dto {
        @IsUrl()
        homepage: string;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ homepage: { type: 'string', format: 'uri' } }, ['homepage']));
      await expectAgreement(Dto, {
        accept: [{ homepage: 'https://example.com/a?b=c' }],
        reject: [{}, { homepage: 'not a url' }, { homepage: 7 }],
      });
    });

    it('maps @IsUUID to format uuid', async () => {
      class Dto {
        @IsUUID()
        id: string;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ id: { type: 'string', format: 'uuid' } }, ['id']));
      await expectAgreement(Dto, {
        accept: [{ id: '123e4567-e89b-42d3-a456-426614174000' }],
        reject: [{}, { id: '123e4567' }, { id: 'zzze4567-e89b-42d3-a456-426614174000' }],
      });
    });

    it('maps @IsISO8601 and @IsDateString to format date-time', async () => {
      class Dto {
        @IsISO8601()
        from: string;

        @IsDateString()
        to: string;
      }
      expect(schemaOf(Dto)).toEqual(
        objectSchema({ from: { type: 'string', format: 'date-time' }, to: { type: 'string', format: 'date-time' } }, ['from', 'to']),
      );
      // class-validator also accepts date-only and zone-less values; the schema asks for full timestamps.
      await expectAgreement(Dto, {
        accept: [{ from: '2024-05-01T10:00:00Z', to: '2024-05-01T12:30:00.250+02:00' }],
        reject: [
          { from: 'yesterday', to: '2024-05-01T10:00:00Z' },
          { from: '2024-05-01T10:00:00Z', to: 5 },
          { from: '2024-05-01T10:00:00Z' },
        ],
      });
    });
  });

  describe('numbers', () => {
    it('maps @Min and @Max to minimum and maximum', async () => {
      class Dto {
        @IsInt()
        @Min(1)
        @Max(100)
        limit: number;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ limit: { type: 'integer', minimum: 1, maximum: 100 } }, ['limit']));
      await expectAgreement(Dto, { accept: [{ limit: 1 }, { limit: 100 }], reject: [{ limit: 0 }, { limit: 101 }, { limit: '5' }] });
    });

    it('maps @IsPositive to exclusiveMinimum 0', async () => {
      class Dto {
        @IsPositive()
        amount: number;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ amount: { type: 'number', exclusiveMinimum: 0 } }, ['amount']));
      await expectAgreement(Dto, {
        accept: [{ amount: 0.01 }, { amount: 5 }],
        reject: [{}, { amount: 0 }, { amount: -1 }, { amount: '5' }],
      });
    });

    it('maps @IsNegative to exclusiveMaximum 0', async () => {
      class Dto {
        @IsNegative()
        delta: number;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ delta: { type: 'number', exclusiveMaximum: 0 } }, ['delta']));
      await expectAgreement(Dto, { accept: [{ delta: -0.5 }], reject: [{}, { delta: 0 }, { delta: 3 }] });
    });
  });

  describe('arrays', () => {
    it('maps @IsArray, @ArrayMinSize, @ArrayMaxSize, @ArrayUnique and `each` rules (into items)', async () => {
      class Dto {
        @IsArray()
        @ArrayMinSize(1)
        @ArrayMaxSize(3)
        @ArrayUnique()
        @IsString({ each: true })
        @MaxLength(5, { each: true })
        tags: string[];
      }
      expect(schemaOf(Dto)).toEqual(
        objectSchema({ tags: { type: 'array', minItems: 1, maxItems: 3, uniqueItems: true, items: { type: 'string', maxLength: 5 } } }, [
          'tags',
        ]),
      );
      await expectAgreement(Dto, {
        accept: [{ tags: ['a'] }, { tags: ['a', 'b', 'c'] }],
        reject: [
          {},
          { tags: [] },
          { tags: ['a', 'b', 'c', 'd'] },
          { tags: ['a', 'a'] },
          { tags: ['toolong'] },
          { tags: [1] },
          { tags: 'a' },
        ],
      });
    });

    it('types items from `each` rules and from @Type(() => Number)', async () => {
      class Dto {
        @IsOptional()
        @IsInt({ each: true })
        @Min(0, { each: true })
        ids?: number[];

        @IsOptional()
        @Type(() => Number)
        weights?: number[];
      }
      expect(schemaOf(Dto)).toEqual(
        objectSchema({
          ids: { type: 'array', items: { type: 'integer', minimum: 0 } },
          weights: { type: 'array', items: { type: 'number' } },
        }),
      );
      await expectAgreement(Dto, { accept: [{}, { ids: [0, 3] }], reject: [{ ids: [-1] }, { ids: [1.5] }, { ids: ['1'] }] });
    });
  });

  describe('nested objects', () => {
    class AddressDto {
      @IsString()
      city: string;

      @IsOptional()
      @IsString()
      zip?: string;
    }

    const ADDRESS_SCHEMA = objectSchema({ city: { type: 'string' }, zip: { type: 'string' } }, ['city']);

    it('inlines a @ValidateNested + @Type(() => X) property', async () => {
      class Dto {
        @IsDefined()
        @ValidateNested()
        @Type(() => AddressDto)
        address: AddressDto;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ address: ADDRESS_SCHEMA }, ['address']));
      await expectAgreement(Dto, {
        accept: [{ address: { city: 'Paris' } }, { address: { city: 'Paris', zip: '75001' } }],
        reject: [{}, { address: {} }, { address: { city: 1 } }, { address: { city: 'Paris', extra: true } }, { address: 'Paris' }],
      });
    });

    it('leaves a property with only @ValidateNested out of required, as class-validator skips undefined', async () => {
      class Dto {
        @ValidateNested()
        @Type(() => AddressDto)
        address?: AddressDto;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ address: ADDRESS_SCHEMA }));
      await expectAgreement(Dto, { accept: [{}, { address: { city: 'Lyon' } }], reject: [{ address: { zip: '1' } }] });
    });

    it('warns once per property that says neither @IsDefined() nor @IsOptional(): absent passes, null is refused', async () => {
      class BareDto {
        @ValidateNested()
        @Type(() => AddressDto)
        address: AddressDto;

        @IsOptional()
        @IsArray()
        @ValidateNested({ each: true })
        @Type(() => AddressDto)
        stops?: AddressDto[];

        @ValidateNested({ each: true })
        @Type(() => AddressDto)
        others: AddressDto[];
      }
      class StatedDto {
        @IsDefined() @ValidateNested() @Type(() => AddressDto) required: AddressDto;
        @IsOptional() @ValidateNested() @Type(() => AddressDto) optional?: AddressDto;
        @IsObject() @ValidateNested() @Type(() => AddressDto) object: AddressDto;
        @ValidateNested() @Type(() => AddressDto) defaulted: AddressDto = { city: 'Paris' };
      }
      const warnings: string[] = [];
      const factory = new DtoSchemaFactory({ warn: (message) => warnings.push(message) });
      factory.forClass(BareDto);
      factory.forClass(BareDto);
      factory.forClass(StatedDto);
      expect(warnings).toEqual([
        'BareDto.address: @ValidateNested() lets the property be absent but refuses null (class-validator), so the schema does not ' +
          'require it; add @IsDefined() to require it or @IsOptional() to allow null/absence',
        'BareDto.others: @ValidateNested() lets the property be absent but refuses null (class-validator), so the schema does not ' +
          'require it; add @IsDefined() to require it or @IsOptional() to allow null/absence',
      ]);
      // What the warning says is what both the schema and the validator do.
      expect(factory.forClass(BareDto).required).toBeUndefined();
      await expectAgreement(BareDto, { accept: [{}, { address: { city: 'Lyon' } }], reject: [{ address: null }, { others: null }] });
      expect(factory.forClass(StatedDto).required).toEqual(['required', 'object']);
    });

    it('warns, with its code, about a tool whose DTO has no class-validator rule (its schema is empty)', () => {
      class DescribedOnlyDto {
        @McpProperty({ description: 'Who to greet' })
        name: string;
      }
      class RuledDto {
        @IsString() name: string;
      }
      const warnings: string[] = [];
      const factory = new DtoSchemaFactory({ warn: (message) => warnings.push(message) });
      factory.warnIfWithoutRules(DescribedOnlyDto, { site: 'GreetTools#greet', name: 'greet' });
      factory.warnIfWithoutRules(RuledDto, { site: 'GreetTools#other', name: 'other' });
      expect(warnings).toEqual([
        'MCP_WARN_DTO_WITHOUT_RULES: GreetTools#greet: the tool "greet" takes DescribedOnlyDto, which has no class-validator ' +
          'decorators (properties without a rule: name): its inputSchema has no properties and class-validator refuses every call. ' +
          'Give each property a rule (@IsString(), @IsInt(), @IsOptional(), …); @McpProperty() and @ApiProperty() only describe a property.',
      ]);
      expect(factory.forClass(DescribedOnlyDto)).toEqual(objectSchema({}));
    });

    it('puts the nested schema into items for arrays of objects', async () => {
      class Dto {
        @IsArray()
        @ArrayMinSize(1)
        @ValidateNested({ each: true })
        @Type(() => AddressDto)
        stops: AddressDto[];
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ stops: { type: 'array', minItems: 1, items: ADDRESS_SCHEMA } }, ['stops']));
      await expectAgreement(Dto, {
        accept: [{ stops: [{ city: 'Paris' }, { city: 'Lyon', zip: '69001' }] }],
        reject: [
          {},
          { stops: [] },
          { stops: [{}] },
          { stops: [{ city: 'Paris', extra: 1 }] },
          { stops: [1] },
          { stops: { city: 'Paris' } },
        ],
      });
    });

    it('infers the nested class from design:type when @Type is missing', () => {
      class Dto {
        @IsObject()
        @ValidateNested()
        address: AddressDto;
      }
      expect(schemaOf(Dto)).toEqual(objectSchema({ address: ADDRESS_SCHEMA }, ['address']));
    });

    it('puts recursive classes in $defs and references them as #/$defs/ClassName', async () => {
      class CategoryDto {
        @IsString()
        name: string;

        @IsOptional()
        @IsArray()
        @ValidateNested({ each: true })
        @Type(() => CategoryDto)
        children?: CategoryDto[];
      }
      class Dto {
        @IsString()
        title: string;

        @IsObject()
        @ValidateNested()
        @Type(() => CategoryDto)
        category: CategoryDto;
      }
      const category = objectSchema({ name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/CategoryDto' } } }, [
        'name',
      ]);
      expect(schemaOf(Dto)).toEqual({
        ...objectSchema({ title: { type: 'string' }, category: { $ref: '#/$defs/CategoryDto' } }, ['title', 'category']),
        $defs: { CategoryDto: category },
      });
      expect(schemaOf(CategoryDto)).toEqual({ ...category, $defs: { CategoryDto: category } });
      await expectAgreement(Dto, {
        accept: [
          { title: 't', category: { name: 'a' } },
          { title: 't', category: { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] } },
        ],
        reject: [
          { title: 't', category: { name: 'a', children: [{ name: 'b', children: [{}] }] } },
          { title: 't', category: { name: 'a', children: [{ name: 'b', x: 1 }] } },
        ],
      });
    });

    it('handles mutual recursion', async () => {
      class TeamDto {
        @IsArray()
        @ValidateNested({ each: true })
        @Type(() => EmployeeDto)
        members: EmployeeDto[];
      }
      class EmployeeDto {
        @IsString()
        name: string;

        @IsOptional()
        @ValidateNested()
        @Type(() => TeamDto)
        team?: TeamDto;
      }
      expect(schemaOf(TeamDto)).toEqual({
        ...objectSchema({ members: { type: 'array', items: { $ref: '#/$defs/EmployeeDto' } } }, ['members']),
        $defs: {
          EmployeeDto: objectSchema({ name: { type: 'string' }, team: { $ref: '#/$defs/TeamDto' } }, ['name']),
          TeamDto: objectSchema({ members: { type: 'array', items: { $ref: '#/$defs/EmployeeDto' } } }, ['members']),
        },
      });
      await expectAgreement(TeamDto, {
        accept: [{ members: [] }, { members: [{ name: 'a', team: { members: [{ name: 'b' }] } }] }],
        reject: [{ members: [{ name: 'a', team: { members: [{}] } }] }],
      });
    });

    it('gives distinct $defs names to distinct recursive classes that share a name', () => {
      const makeNode = () => {
        class NodeDto {
          @IsOptional()
          @ValidateNested()
          @Type(() => NodeDto)
          next?: NodeDto;
        }
        return NodeDto;
      };
      const [First, Second] = [makeNode(), makeNode()];
      class Dto {
        @ValidateNested()
        @Type(() => First)
        a: object;

        @ValidateNested()
        @Type(() => Second)
        b: object;
      }
      expect(schemaOf(Dto)).toEqual({
        ...objectSchema({ a: { $ref: '#/$defs/NodeDto' }, b: { $ref: '#/$defs/NodeDto_2' } }),
        $defs: {
          NodeDto: objectSchema({ next: { $ref: '#/$defs/NodeDto' } }),
          NodeDto_2: objectSchema({ next: { $ref: '#/$defs/NodeDto_2' } }),
        },
      });
    });

    it('throws McpSchemaError naming the property and the fix when the nested class is unknown', () => {
      class OrderDto {
        @IsArray()
        @ValidateNested({ each: true })
        lines: object[];
      }
      expect(() => schemaOf(OrderDto)).toThrow(McpSchemaError);
      expect(() => schemaOf(OrderDto)).toThrow(/OrderDto\.lines: .*add @Type\(\(\) => NestedDto\)/i);
    });
  });

  describe('nullable', () => {
    it('supports @ValidateIf((o) => o.x !== null) with @McpProperty({ nullable: true })', async () => {
      class Dto {
        @McpProperty({ nullable: true })
        @ValidateIf((dto: Dto) => dto.nickname !== null)
        @IsString()
        nickname: string | null;
      }
      const debug = jest.fn();
      expect(schemaOf(Dto, debug)).toEqual(objectSchema({ nickname: { type: ['string', 'null'] } }, ['nickname']));
      expect(debug).toHaveBeenCalledWith(expect.stringContaining('Dto.nickname: the @ValidateIf condition cannot be read'));
      await expectAgreement(Dto, { accept: [{ nickname: 'x' }, { nickname: null }], reject: [{}, { nickname: 1 }] });
    });

    it('supports @IsOptional() combined with nullable, including enums', async () => {
      class Dto {
        @IsOptional()
        @IsString()
        @McpProperty({ nullable: true })
        note?: string | null;

        @IsOptional()
        @IsIn(['a', 'b'])
        @McpProperty({ nullable: true })
        choice?: string | null;
      }
      expect(schemaOf(Dto)).toEqual(
        objectSchema({ note: { type: ['string', 'null'] }, choice: { type: ['string', 'null'], enum: ['a', 'b', null] } }),
      );
      await expectAgreement(Dto, {
        accept: [{}, { note: null, choice: null }, { note: 'x', choice: 'b' }],
        reject: [{ note: 1 }, { choice: 'c' }],
      });
    });

    it('accepts null for a nullable property even where its rule alone would reject it (the schema decides)', async () => {
      class Dto {
        @McpProperty({ nullable: true })
        @IsString()
        label: string | null;

        @McpProperty({ nullable: true })
        @IsOptional()
        @ValidateNested()
        @Type(() => NoteDto)
        note?: NoteDto | null;
      }
      class NoteDto {
        @IsString()
        text: string;
      }
      expect(schemaOf(Dto)).toEqual(
        objectSchema(
          {
            label: { type: ['string', 'null'] },
            note: { ...objectSchema({ text: { type: 'string' } }, ['text']), type: ['object', 'null'] },
          },
          ['label'],
        ),
      );
      await expectAgreement(Dto, {
        accept: [{ label: null }, { label: 'a', note: null }, { label: 'a', note: { text: 't' } }],
        reject: [{}, { label: 1 }, { label: null, note: { text: null } }, { label: null, note: {} }],
      });
    });

    it('wraps a nullable recursive reference in anyOf', () => {
      class NodeDto {
        @IsOptional()
        @ValidateNested()
        @Type(() => NodeDto)
        @McpProperty({ nullable: true, description: 'Next node' })
        next?: NodeDto | null;
      }
      const node = objectSchema({ next: { description: 'Next node', anyOf: [{ $ref: '#/$defs/NodeDto' }, { type: 'null' }] } });
      expect(schemaOf(NodeDto)).toEqual({ ...node, $defs: { NodeDto: node } });
    });
  });

  describe('defaults', () => {
    it('reads JSON defaults from property initialisers, which also make the property optional', async () => {
      class Dto {
        @IsInt()
        @Min(1)
        limit = 5;

        @IsOptional()
        @IsString({ each: true })
        tags: string[] = ['a'];

        @IsOptional()
        @IsObject()
        options: Record<string, unknown> = { deep: { on: true } };

        @IsOptional()
        @IsDate()
        @Type(() => Date)
        since: Date = new Date(0);

        @IsString()
        name: string;
      }
      expect(schemaOf(Dto)).toEqual(
        objectSchema(
          {
            limit: { type: 'integer', minimum: 1, default: 5 },
            tags: { type: 'array', items: { type: 'string' }, default: ['a'] },
            options: { type: 'object', default: { deep: { on: true } } },
            since: { type: 'string', format: 'date-time' },
            name: { type: 'string' },
          },
          ['name'],
        ),
      );
      await expectAgreement(Dto, {
        accept: [{ name: 'n' }, { name: 'n', limit: 2, since: '2024-01-01T00:00:00Z' }],
        reject: [{ name: 'n', limit: 0 }, { limit: 3 }, { name: 'n', since: 'garbage' }],
      });
    });

    it('survives a constructor that throws, with a debug message', () => {
      class Dto {
        @IsString()
        name: string;

        constructor(required: { name: string }) {
          this.name = required.name;
        }
      }
      const debug = jest.fn();
      expect(schemaOf(Dto, debug)).toEqual(objectSchema({ name: { type: 'string' } }, ['name']));
      expect(debug).toHaveBeenCalledWith(expect.stringContaining('new Dto() threw'));
    });
  });

  describe('annotations', () => {
    it('takes description, title, examples, format and deprecated from @McpProperty', () => {
      class Dto {
        @McpProperty({ description: 'City name', title: 'City', examples: ['Paris', 'Lyon'] })
        @IsString()
        city: string;

        @McpProperty({ format: 'date', deprecated: true })
        @IsOptional()
        @IsString()
        day?: string;
      }
      expect(schemaOf(Dto)).toEqual(
        objectSchema(
          {
            city: { title: 'City', description: 'City name', type: 'string', examples: ['Paris', 'Lyon'] },
            day: { type: 'string', format: 'date', deprecated: true },
          },
          ['city'],
        ),
      );
    });

    it('reads @ApiProperty metadata (swagger/apiModelProperties) without depending on swagger', () => {
      // What @nestjs/swagger's @ApiProperty records on the prototype.
      const ApiProperty =
        (options: Record<string, unknown>): PropertyDecorator =>
        (target, key) =>
          Reflect.defineMetadata(SWAGGER_API_MODEL_PROPERTIES, { type: String, required: true, ...options }, target, key);
      class Dto {
        @ApiProperty({ description: 'Search text', example: 'rain', title: 'Query' })
        @IsString()
        query: string;

        @ApiProperty({ description: 'From swagger', examples: [1, 2], default: 10, minimum: 1 })
        @McpProperty({ description: 'From MCP' })
        @IsOptional()
        @IsInt()
        limit?: number;
      }
      expect(schemaOf(Dto)).toEqual(
        objectSchema(
          {
            query: { title: 'Query', description: 'Search text', type: 'string', examples: ['rain'] },
            limit: { description: 'From MCP', type: 'integer', default: 10, examples: [1, 2] },
          },
          ['query'],
        ),
      );
    });

    it('applies @McpDto description, title and additionalProperties, also on nested classes', () => {
      @McpDto({ description: 'Free-form labels', additionalProperties: true })
      class LabelsDto {
        @IsOptional()
        @IsString()
        main?: string;
      }
      @McpDto({ title: 'Tag input', description: 'Adds labels' })
      class Dto {
        @ValidateNested()
        @Type(() => LabelsDto)
        labels: LabelsDto;

        @McpProperty({ description: 'Overrides the class description' })
        @ValidateNested()
        @Type(() => LabelsDto)
        extra: LabelsDto;
      }
      expect(schemaOf(Dto)).toEqual({
        type: 'object',
        title: 'Tag input',
        description: 'Adds labels',
        properties: {
          labels: { type: 'object', description: 'Free-form labels', properties: { main: { type: 'string' } }, additionalProperties: true },
          extra: {
            description: 'Overrides the class description',
            type: 'object',
            properties: { main: { type: 'string' } },
            additionalProperties: true,
          },
        },
        additionalProperties: false,
      });
    });

    it('records decorator options under the shared metadata keys', () => {
      @McpDto({ title: 'T' })
      class Dto {
        @McpProperty({ description: 'd' })
        name: string;
      }
      expect(Reflect.getMetadata(MCP_DTO_METADATA, Dto)).toEqual({ title: 'T' });
      expect(Reflect.getMetadata(MCP_PROPERTY_METADATA, Dto.prototype, 'name')).toEqual({ description: 'd' });
    });
  });

  describe('type inference from design:type', () => {
    class PointDto {
      @IsNumber()
      x: number;
    }

    it('maps String, Number, Boolean, Array, Date and a nested class', () => {
      class Dto {
        @IsOptional()
        text?: string;

        @IsOptional()
        amount?: number;

        @IsOptional()
        flag?: boolean;

        @IsOptional()
        list?: string[];

        @IsOptional()
        at?: Date;

        @IsOptional()
        @ValidateNested()
        point?: PointDto;

        @IsOptional()
        anything?: unknown;
      }
      expect(schemaOf(Dto)).toEqual(
        objectSchema({
          text: { type: 'string' },
          amount: { type: 'number' },
          flag: { type: 'boolean' },
          list: { type: 'array' },
          at: { type: 'string', format: 'date-time' },
          point: objectSchema({ x: { type: 'number' } }, ['x']),
          anything: {},
        }),
      );
    });

    it('lets validator types win over design:type and implied types', () => {
      class Dto {
        @IsInt()
        count: number;

        @Min(0)
        union: number | string;
      }
      expect(schemaOf(Dto)).toEqual(
        objectSchema({ count: { type: 'integer' }, union: { type: 'number', minimum: 0 } }, ['count', 'union']),
      );
    });
  });

  describe('inheritance and order', () => {
    it('includes parent properties first, in declaration order', async () => {
      class BaseDto {
        @IsString()
        id: string;

        @IsOptional()
        @IsString()
        note?: string;
      }
      class ChildDto extends BaseDto {
        @IsInt()
        zeta: number;

        @IsBoolean()
        alpha: boolean;

        @IsOptional()
        @MaxLength(3)
        declare note?: string;
      }
      const schema = schemaOf(ChildDto);
      expect(Object.keys(schema.properties as JsonSchema)).toEqual(['id', 'note', 'zeta', 'alpha']);
      expect(schema).toEqual(
        objectSchema(
          { id: { type: 'string' }, note: { type: 'string', maxLength: 3 }, zeta: { type: 'integer' }, alpha: { type: 'boolean' } },
          ['id', 'zeta', 'alpha'],
        ),
      );
      await expectAgreement(ChildDto, {
        accept: [{ id: 'a', zeta: 1, alpha: true }],
        reject: [
          { zeta: 1, alpha: true },
          { id: 'a', zeta: 1, alpha: true, note: 'long' },
        ],
      });
    });
  });

  describe('unsupported decorators', () => {
    @ValidatorConstraint({ name: 'isEven' })
    class IsEvenConstraint implements ValidatorConstraintInterface {
      validate(value: unknown): boolean {
        return typeof value === 'number' && value % 2 === 0;
      }
    }

    it('skips @Validate(Custom) and @IsPhoneNumber with one debug message each, keeping type and required', () => {
      class Dto {
        @IsInt()
        @Validate(IsEvenConstraint)
        even: number;

        @IsPhoneNumber('FR')
        phone: string;
      }
      const debug = jest.fn();
      expect(schemaOf(Dto, debug)).toEqual(objectSchema({ even: { type: 'integer' }, phone: { type: 'string' } }, ['even', 'phone']));
      expect(debug.mock.calls).toEqual([
        [expect.stringMatching(/^Dto\.even: 'IsEvenConstraint' has no JSON Schema mapping/)],
        [expect.stringMatching(/^Dto\.phone: 'isPhoneNumber' has no JSON Schema mapping/)],
      ]);
    });

    @ValidatorConstraint({ name: 'isTakenAsync', async: true })
    class IsTakenAsyncConstraint implements ValidatorConstraintInterface {
      async validate(): Promise<boolean> {
        return false;
      }
    }

    it('the agreement check runs the validator tools/call runs: it sees an async rule the schema cannot say', async () => {
      class Dto {
        @IsString()
        @Validate(IsTakenAsyncConstraint)
        name: string;
      }
      // ajv accepts { name: 'a' }; tools/call refuses it (the async rule), so the two must be reported apart. A
      // check of its own with validateSync would skip the async rule and see an agreement that is not there.
      await expect(expectAgreement(Dto, { accept: [{ name: 'a' }], reject: [] })).rejects.toThrow(/classValidator/);
    });
  });

  describe('forClass', () => {
    it('returns an empty object schema for undefined', () => {
      expect(schemaOf(undefined)).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    });

    it('caches per instance and hands out independent copies', () => {
      class Dto {
        @IsString()
        @IsPhoneNumber('FR')
        name: string;
      }
      const debugA = jest.fn();
      const debugB = jest.fn();
      const factoryA = new DtoSchemaFactory({ debug: debugA });
      const factoryB = new DtoSchemaFactory({ debug: debugB });
      const first = factoryA.forClass(Dto);
      (first.properties as JsonSchema).name = 'mutated';
      expect(factoryA.forClass(Dto)).toEqual(objectSchema({ name: { type: 'string' } }, ['name']));
      expect(debugA).toHaveBeenCalledTimes(1);
      factoryB.forClass(Dto);
      expect(debugB).toHaveBeenCalledTimes(1);
    });

    it('builds 500 DTOs well under 100 ms', () => {
      enum Color {
        Red = 'red',
        Blue = 'blue',
      }
      const makeDtos = () =>
        Array.from({ length: 500 }, (_, index) => {
          class NestedDto {}
          IsString()(NestedDto.prototype, 'label');
          class Dto {
            limit = 5;
          }
          Object.defineProperty(Dto, 'name', { value: `Dto${index}` });
          IsString()(Dto.prototype, 'name');
          MaxLength(80)(Dto.prototype, 'name');
          IsOptional()(Dto.prototype, 'limit');
          IsInt()(Dto.prototype, 'limit');
          Min(1)(Dto.prototype, 'limit');
          IsEmail()(Dto.prototype, 'email');
          IsArray()(Dto.prototype, 'tags');
          IsString({ each: true })(Dto.prototype, 'tags');
          IsEnum(Color)(Dto.prototype, 'color');
          ValidateNested()(Dto.prototype, 'nested');
          Type(() => NestedDto)(Dto.prototype, 'nested');
          return Dto;
        });
      // Boot time for 500 tools is measured by the benchmark (npm run bench), not here.
      let last: JsonSchema = {};
      const factory = new DtoSchemaFactory();
      for (const dto of makeDtos()) last = factory.forClass(dto);
      expect(last).toEqual(
        objectSchema(
          {
            name: { type: 'string', maxLength: 80 },
            limit: { type: 'integer', minimum: 1, default: 5 },
            email: { type: 'string', format: 'email' },
            tags: { type: 'array', items: { type: 'string' } },
            color: { type: 'string', enum: ['red', 'blue'] },
            nested: objectSchema({ label: { type: 'string' } }, ['label']),
          },
          ['name', 'email', 'tags', 'color'],
        ),
      );
    });
  });
});
