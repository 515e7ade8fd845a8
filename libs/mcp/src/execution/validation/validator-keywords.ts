import type { JsonSchema, JsonSchemaTypeName } from '../../core/json-schema.types.js';

/** What a keyword rule knows about the value it describes when it runs. */
export interface KeywordContext {
  /** JSON types the value is known to have (from the type decorators, `@Type()` or `design:type`), if any. */
  readonly types: readonly JsonSchemaTypeName[] | undefined;
  /** `ClassName.property`, for debug messages. */
  readonly location: string;
  /** Reports a constraint the schema cannot express; the validator still enforces it. */
  readonly debug: (message: string) => void;
}

/** How one class-validator decorator translates to JSON Schema keywords. */
export interface ValidatorKeywordRule {
  /**
   * The JSON type the validator asserts (`@IsString()` → `'string'`), or a function computing it from the
   * decorator's constraints (`@IsEnum()` → the types of the enum's values). It wins over `design:type`.
   */
  readonly type?: JsonSchemaTypeName | ((constraints: readonly unknown[]) => readonly JsonSchemaTypeName[] | undefined);
  /** The JSON type the validator only accepts (`@Min()` needs a number), used when nothing else names a type. */
  readonly impliedType?: JsonSchemaTypeName;
  /** Keywords to add, computed from the decorator's constraints; `undefined` adds none. */
  readonly keywords?: (constraints: readonly unknown[], context: KeywordContext) => JsonSchema | undefined;
  /** `true` when the validator accepts a missing value, so the rule alone does not make the property required. */
  readonly acceptsMissing?: boolean;
}

type JsonPrimitive = string | number | boolean | null;

function isJsonPrimitive(value: unknown): value is JsonPrimitive {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

/** The JSON types of a list of values; `integer` folds into `number` when both appear. */
function typesOfValues(values: readonly JsonPrimitive[]): JsonSchemaTypeName[] | undefined {
  const types = new Set<JsonSchemaTypeName>();
  for (const value of values) {
    if (value === null) types.add('null');
    else if (typeof value === 'number') types.add(Number.isInteger(value) ? 'integer' : 'number');
    else types.add(typeof value === 'string' ? 'string' : 'boolean');
  }
  if (types.has('number')) types.delete('integer');
  return types.size > 0 ? [...types] : undefined;
}

/** Values a JSON document can carry; other values (objects, functions) can never equal a parsed argument. */
function jsonPrimitives(values: unknown): JsonPrimitive[] {
  return Array.isArray(values) ? values.filter(isJsonPrimitive) : [];
}

/** class-validator keeps the enum's "real" values (not the reverse-mapped keys of numeric enums) as constraint 2. */
function enumValues(constraints: readonly unknown[]): JsonPrimitive[] {
  if (Array.isArray(constraints[1])) return jsonPrimitives(constraints[1]);
  const entity = constraints[0];
  if (entity === null || typeof entity !== 'object') return [];
  return jsonPrimitives(
    Object.entries(entity)
      .filter(([key]) => Number.isNaN(Number.parseInt(key, 10)))
      .map(([, value]) => value),
  );
}

function numberKeyword(keyword: string, value: unknown): JsonSchema | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? { [keyword]: value } : undefined;
}

function lengthKeyword(keyword: string, value: unknown): JsonSchema | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? { [keyword]: value } : undefined;
}

function isRegExp(value: unknown): value is RegExp {
  // validator.js uses the same realm-independent check, and Jest runs modules in separate realms.
  return Object.prototype.toString.call(value) === '[object RegExp]';
}

/** Flags that do not change what `String.prototype.match` accepts, or that JSON Schema validators always set. */
const HARMLESS_REGEX_FLAGS = new Set(['g', 'u', 'd']);

function patternKeyword(constraints: readonly unknown[], context: KeywordContext): JsonSchema | undefined {
  const [pattern, modifiers] = constraints;
  const source = isRegExp(pattern) ? pattern.source : typeof pattern === 'string' ? pattern : undefined;
  if (source === undefined) return undefined;
  // validator.js ignores the modifiers argument when it is given a RegExp.
  const flags = isRegExp(pattern) ? pattern.flags : typeof modifiers === 'string' ? modifiers : '';
  const lost = [...flags].filter((flag) => !HARMLESS_REGEX_FLAGS.has(flag));
  if (lost.length > 0) {
    context.debug(
      `${context.location}: @Matches flag(s) "${lost.join('')}" cannot be expressed in JSON Schema; the pattern is emitted without them`,
    );
  }
  try {
    // JSON Schema validators (ajv included) compile patterns with the unicode flag, which rejects some syntax that passes without it.
    new RegExp(source, 'u');
  } catch {
    context.debug(
      `${context.location}: @Matches pattern /${source}/ is not valid with the unicode flag JSON Schema validators use; pattern omitted`,
    );
    return undefined;
  }
  return { pattern: source };
}

function format(name: string): ValidatorKeywordRule {
  return { impliedType: 'string', keywords: () => ({ format: name }) };
}

/**
 * class-validator decorator → JSON Schema keywords, keyed by the metadata `name` class-validator records
 * (`IS_STRING = 'isString'`, ...) or, for `@Validate(Constraint)`, the constraint class name. Decorators that are
 * absent here are skipped with a debug message; the validator still enforces them.
 */
export const VALIDATOR_KEYWORDS: Readonly<Record<string, ValidatorKeywordRule>> = Object.freeze({
  // Type checkers
  isString: { type: 'string' },
  isNumber: {
    type: 'number',
    keywords: ([options], context) => {
      if (options !== null && typeof options === 'object' && (options as { maxDecimalPlaces?: unknown }).maxDecimalPlaces !== undefined) {
        context.debug(`${context.location}: @IsNumber({ maxDecimalPlaces }) has no JSON Schema equivalent; ignored`);
      }
      return undefined;
    },
  },
  isInt: { type: 'integer' },
  isBoolean: { type: 'boolean' },
  isArray: { type: 'array' },
  isObject: { type: 'object' },
  isDate: { type: 'string', keywords: () => ({ format: 'date-time' }) },
  isEnum: {
    type: (constraints) => typesOfValues(enumValues(constraints)),
    keywords: (constraints) => ({ enum: enumValues(constraints) }),
  },

  // Common
  isIn: {
    type: ([values]) => typesOfValues(jsonPrimitives(values)),
    keywords: ([values]) => ({ enum: jsonPrimitives(values) }),
  },
  isNotIn: { keywords: ([values]) => ({ not: { enum: jsonPrimitives(values) } }), acceptsMissing: true },
  equals: {
    type: ([value]) => (isJsonPrimitive(value) ? typesOfValues([value]) : undefined),
    keywords: ([value]) => (isJsonPrimitive(value) ? { const: value } : undefined),
  },
  notEquals: { keywords: ([value]) => (isJsonPrimitive(value) ? { not: { const: value } } : undefined), acceptsMissing: true },
  // Rejects '', null and undefined; only the empty string needs a keyword (null and missing are handled by type/required).
  isNotEmpty: { keywords: (_constraints, { types }) => (types === undefined || types.includes('string') ? { minLength: 1 } : undefined) },

  // Numbers
  min: { impliedType: 'number', keywords: ([min]) => numberKeyword('minimum', min) },
  max: { impliedType: 'number', keywords: ([max]) => numberKeyword('maximum', max) },
  isPositive: { impliedType: 'number', keywords: () => ({ exclusiveMinimum: 0 }) },
  isNegative: { impliedType: 'number', keywords: () => ({ exclusiveMaximum: 0 }) },
  // validator.js divides by parseInt(divisor), so only positive integer divisors mean the same as multipleOf.
  isDivisibleBy: {
    impliedType: 'number',
    keywords: ([divisor]) => (Number.isInteger(divisor) && (divisor as number) > 0 ? { multipleOf: divisor } : undefined),
  },

  // Strings
  minLength: { impliedType: 'string', keywords: ([min]) => lengthKeyword('minLength', min) },
  maxLength: { impliedType: 'string', keywords: ([max]) => lengthKeyword('maxLength', max) },
  isLength: {
    impliedType: 'string',
    keywords: ([min, max]) => ({ ...lengthKeyword('minLength', min), ...lengthKeyword('maxLength', max) }),
  },
  matches: { impliedType: 'string', keywords: patternKeyword },
  isEmail: format('email'),
  isUrl: format('uri'),
  isUuid: format('uuid'),
  isIso8601: format('date-time'),
  isDateString: format('date-time'),
  isRFC3339: format('date-time'),
  isIp: {
    impliedType: 'string',
    keywords: ([version]) => {
      const normalized = String(version);
      return normalized === '4' ? { format: 'ipv4' } : normalized === '6' ? { format: 'ipv6' } : undefined;
    },
  },

  // Arrays
  arrayMinSize: { impliedType: 'array', keywords: ([min]) => lengthKeyword('minItems', min) },
  arrayMaxSize: { impliedType: 'array', keywords: ([max]) => lengthKeyword('maxItems', max) },
  arrayNotEmpty: { impliedType: 'array', keywords: () => ({ minItems: 1 }) },
  arrayUnique: { impliedType: 'array', keywords: () => ({ uniqueItems: true }) },

  // Objects
  isNotEmptyObject: { type: 'object', keywords: () => ({ minProperties: 1 }) },
} satisfies Record<string, ValidatorKeywordRule>);

/** The rule registered for a class-validator metadata name (never an inherited key such as `toString`), or `undefined`. */
export function findValidatorKeywordRule(name: string | undefined): ValidatorKeywordRule | undefined {
  return name === undefined ? undefined : RULES_BY_NAME.get(name);
}

const RULES_BY_NAME: ReadonlyMap<string, ValidatorKeywordRule> = new Map(Object.entries(VALIDATOR_KEYWORDS));
