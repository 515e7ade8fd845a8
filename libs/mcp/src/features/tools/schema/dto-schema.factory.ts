import 'reflect-metadata';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import { ValidationTypes } from 'class-validator';
import type { McpDtoOptions } from './mcp-dto.decorator.js';
import type { McpPropertyOptions } from './mcp-property.decorator.js';
import { MCP_DTO_METADATA, MCP_PROPERTY_METADATA, SWAGGER_API_MODEL_PROPERTIES } from '../../../core/mcp.constants.js';
import type { JsonSchema, JsonSchemaTypeName } from '../../../core/json-schema.types.js';
import { McpSchemaError } from './schema-build.error.js';
import { McpDtoSchemaWarnings } from './dto-schema.messages.js';
import {
  BUILT_IN_TYPES,
  lineage,
  readValidationMetadata,
  type ValidationMetadata,
} from '../../../execution/validation/validation-metadata.reader.js';
import {
  findValidatorKeywordRule,
  type KeywordContext,
  type ValidatorKeywordRule,
} from '../../../execution/validation/validator-keywords.js';
import type { McpClassRef } from '../../../core/class-ref.js';
import { isObjectLiteral, isPlainObject } from '../../../core/plain-object.js';

/** Options of a {@link DtoSchemaFactory}. */
export interface DtoSchemaFactoryOptions {
  /** Receives one message per decorator or option the schema cannot express (the validator still enforces it). */
  debug?: (message: string) => void;
  /** Receives one message per DTO property whose decorators probably do not say what its author meant. */
  warn?: (message: string) => void;
}

interface MappedRule {
  readonly metadata: ValidationMetadata;
  readonly rule: ValidatorKeywordRule;
}

/** A property's schema, split so nested classes can be inlined or referenced once the whole document is known. */
interface PropertyPlan {
  readonly name: string;
  /** `title` and `description`: emitted first, and they win over the nested class's own. */
  readonly annotations: JsonSchema;
  /** `type` and the validation keywords; `items` holds only the item keywords when the items are a nested class. */
  readonly body: JsonSchema;
  /** `default`, `examples`, `deprecated`. */
  readonly trailing: JsonSchema;
  readonly nested?: { readonly target: McpClassRef; readonly inItems: boolean };
  readonly nullable: boolean;
  readonly required: boolean;
}

interface ClassPlan {
  readonly options: McpDtoOptions;
  readonly properties: readonly PropertyPlan[];
}

interface PropertyHints extends McpPropertyOptions {
  default?: unknown;
}

const LOWER_BOUNDS = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
const UPPER_BOUNDS = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']);

/** Every JSON type but null (`integer` is within `number`). */
const NON_NULL_TYPES: readonly JsonSchemaTypeName[] = ['string', 'number', 'boolean', 'object', 'array'];

const EMPTY_OBJECT_SCHEMA: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };

/**
 * Builds the JSON Schema (draft 2020-12) of a class-validator DTO: properties from its rules (inherited included),
 * types from the type decorators, `@Type()` and `design:type`, defaults from initialisers, descriptions from
 * `@McpProperty()` or `@ApiProperty()`. Only recursive nested DTOs go to `$defs`. Each instance caches what it builds.
 */
export class DtoSchemaFactory {
  private readonly debug: (message: string) => void;
  private readonly warn: (message: string) => void;
  private readonly documents = new Map<McpClassRef, JsonSchema>();
  private readonly plans = new Map<McpClassRef, ClassPlan>();
  private readonly metadata = new Map<McpClassRef, ValidationMetadata[]>();
  private readonly recursive = new Map<McpClassRef, boolean>();

  constructor(options: DtoSchemaFactoryOptions = {}) {
    this.debug = options.debug ?? (() => undefined);
    this.warn = options.warn ?? (() => undefined);
  }

  /**
   * The JSON Schema of a DTO class, or of an empty object when there is no DTO; a fresh copy each time.
   * @throws McpSchemaError when a property cannot be described at all (e.g. `@ValidateNested()` without a class)
   */
  forClass(dto: McpClassRef | undefined): JsonSchema {
    return structuredClone(dto === undefined ? EMPTY_OBJECT_SCHEMA : cached(this.documents, dto, () => this.assemble(dto)));
  }

  /**
   * Warns about a tool's DTO that has no class-validator rule: its schema has no properties, and class-validator
   * refuses every call with it (the call's VALIDATION_ERROR says why too).
   */
  warnIfWithoutRules(dto: McpClassRef, tool: { site: string; name: string }): void {
    if (this.metadataFor(dto).length > 0) return;
    this.warn(McpDtoSchemaWarnings.withoutRules(tool.site, tool.name, dto.name, [...this.readInitialValues(dto).keys()]));
  }

  /**
   * Forgets what it cached. The boot calls it once every tool is described: each descriptor holds its own copy of
   * its schema, and the cached ones (documents, plans, metadata) would otherwise stay for the life of the app.
   */
  clear(): void {
    for (const cache of [this.documents, this.plans, this.metadata, this.recursive]) cache.clear();
  }

  /** Renders the document of one root class: nested classes inline, recursive ones in `$defs`. */
  private assemble(root: McpClassRef): JsonSchema {
    const definitions = new Map<McpClassRef, JsonSchema>();
    const definitionNames = new Map<McpClassRef, string>();
    const takenNames = new Set<string>();

    const reference = (target: McpClassRef): JsonSchema => {
      let name = definitionNames.get(target);
      if (name === undefined) {
        const base = target.name || 'Anonymous';
        name = base;
        for (let suffix = 2; takenNames.has(name); suffix++) name = `${base}_${suffix}`;
        takenNames.add(name);
        definitionNames.set(target, name);
        // Reserve the slot before rendering so the class's references to itself stop here.
        definitions.set(target, {});
        definitions.set(target, render(target));
      }
      return { $ref: `#/$defs/${name}` };
    };

    const render = (target: McpClassRef): JsonSchema => {
      const plan = this.planFor(target);
      const properties: JsonSchema = {};
      const required: string[] = [];
      for (const property of plan.properties) {
        const nested =
          property.nested &&
          (this.isRecursive(property.nested.target) ? reference(property.nested.target) : render(property.nested.target));
        properties[property.name] = renderProperty(property, nested);
        if (property.required) required.push(property.name);
      }
      const schema: JsonSchema = { type: 'object' };
      if (plan.options.title !== undefined) schema.title = plan.options.title;
      if (plan.options.description !== undefined) schema.description = plan.options.description;
      schema.properties = properties;
      if (required.length > 0) schema.required = required;
      schema.additionalProperties = plan.options.additionalProperties === true;
      return schema;
    };

    const document = render(root);
    if (definitions.size > 0) {
      document.$defs = Object.fromEntries([...definitions].map(([target, schema]) => [definitionNames.get(target), schema]));
    }
    return document;
  }

  /** Whether a class can reach itself through nested properties (those must be referenced, not inlined). */
  private isRecursive(target: McpClassRef): boolean {
    return cached(this.recursive, target, () => {
      const visited = new Set<McpClassRef>();
      const pending = this.nestedTargets(target);
      while (pending.length > 0) {
        const next = pending.pop() as McpClassRef;
        if (next === target) return true;
        if (visited.has(next)) continue;
        visited.add(next);
        pending.push(...this.nestedTargets(next));
      }
      return false;
    });
  }

  private nestedTargets(target: McpClassRef): McpClassRef[] {
    return this.planFor(target).properties.flatMap((property) => (property.nested ? [property.nested.target] : []));
  }

  private planFor(target: McpClassRef): ClassPlan {
    return cached(this.plans, target, () => this.buildPlan(target));
  }

  private buildPlan(target: McpClassRef): ClassPlan {
    const grouped = new Map<string, ValidationMetadata[]>();
    for (const metadata of this.metadataFor(target)) {
      // A symbol-keyed property cannot appear in JSON arguments.
      if (typeof metadata.propertyName !== 'string') continue;
      const group = grouped.get(metadata.propertyName);
      if (group) group.push(metadata);
      else grouped.set(metadata.propertyName, [metadata]);
    }
    const initialValues = this.readInitialValues(target);
    const properties: PropertyPlan[] = [];
    for (const name of this.propertyOrder(target)) {
      const group = grouped.get(name);
      if (group) properties.push(this.buildProperty(target, name, group, initialValues));
    }
    const options = (Reflect.getMetadata(MCP_DTO_METADATA, target) as McpDtoOptions | undefined) ?? {};
    return { options, properties };
  }

  /** The metadata class-validator itself uses when validating an instance (own rules first, then inherited). */
  private metadataFor(target: McpClassRef): ValidationMetadata[] {
    return cached(this.metadata, target, () => readValidationMetadata(target));
  }

  /** Declaration order, base classes first (the order of the instance's fields); read once per class, by its plan. */
  private propertyOrder(target: McpClassRef): readonly string[] {
    const names = new Set<string>();
    for (const type of lineage(target).reverse()) {
      for (const metadata of this.metadataFor(type)) {
        if (metadata.target === type && typeof metadata.propertyName === 'string') names.add(metadata.propertyName);
      }
    }
    return [...names];
  }

  /** Own enumerable values of `new Dto()`: what class-transformer keeps when an argument is missing. */
  private readInitialValues(target: McpClassRef): Map<string, unknown> {
    let instance: unknown;
    try {
      instance = new (target as new () => unknown)();
    } catch (error) {
      this.debug(
        `${target.name}: new ${target.name}() threw (${error instanceof Error ? error.message : String(error)}); property defaults are not read`,
      );
    }
    return new Map(instance !== null && typeof instance === 'object' ? Object.entries(instance) : []);
  }

  private buildProperty(
    target: McpClassRef,
    name: string,
    group: readonly ValidationMetadata[],
    initialValues: Map<string, unknown>,
  ): PropertyPlan {
    const location = `${target.name}.${name}`;
    let optional = false;
    let rejectsMissing = false;
    let definedRule = false;
    const nestedRules: ValidationMetadata[] = [];
    const rules: MappedRule[] = [];
    for (const metadata of group) {
      switch (metadata.type) {
        case ValidationTypes.CONDITIONAL_VALIDATION:
          if (metadata.name === 'isOptional') optional = true;
          else
            this.debug(
              `${location}: the @ValidateIf condition cannot be read; the schema ignores it (use @McpProperty({ nullable: true }) for a null-only condition)`,
            );
          break;
        case ValidationTypes.IS_DEFINED:
          rejectsMissing = true;
          definedRule = true;
          break;
        case ValidationTypes.NESTED_VALIDATION:
          nestedRules.push(metadata);
          break;
        case ValidationTypes.CUSTOM_VALIDATION: {
          const label = metadata.name ?? metadata.constraintCls?.name;
          if (metadata.validateIf) {
            this.debug(`${location}: '${label}' has a validateIf condition that cannot be read; the rule is left out of the schema`);
            break;
          }
          const rule = findValidatorKeywordRule(label);
          if (!rule?.acceptsMissing) rejectsMissing = true;
          if (rule) rules.push({ metadata, rule });
          else this.debug(`${location}: '${label}' has no JSON Schema mapping; the schema leaves it out (the validator still applies it)`);
          break;
        }
        default:
          // WHITELIST (@Allow) only lists the property; PROMISE_VALIDATION cannot apply to JSON arguments.
          break;
      }
    }

    const prototype = target.prototype as object;
    // Own lookup first: reflect-metadata's inherited lookup walks the prototype chain, and boot time matters here.
    const designType = (Reflect.getOwnMetadata('design:type', prototype, name) ??
      Reflect.getMetadata('design:type', prototype, name)) as unknown;
    const typeTarget = this.readTypeDecorator(target, name, location);
    const propertyRules = rules.filter((mapped) => !mapped.metadata.each);
    const itemRules = rules.filter((mapped) => mapped.metadata.each);
    const nestedInItems = nestedRules.some((metadata) => metadata.each);

    const body: JsonSchema = {};
    let types = this.explicitTypes(propertyRules, location);
    if (types === undefined) {
      const fallback =
        designType === Array || nestedInItems
          ? { type: 'array' }
          : nestedRules.length > 0
            ? { type: 'object' }
            : (constructorSchema(typeTarget) ??
              constructorSchema(designType) ??
              impliedSchema(propertyRules) ??
              (itemRules.length > 0 ? { type: 'array' } : undefined));
      if (fallback) {
        Object.assign(body, fallback);
        types = [fallback.type as JsonSchemaTypeName];
      }
    } else {
      body.type = types.length === 1 ? types[0] : types;
    }
    const context: KeywordContext = { types, location, debug: this.debug };
    for (const { metadata, rule } of propertyRules) mergeKeywords(body, rule.keywords?.(metadata.constraints ?? [], context));

    let nested: PropertyPlan['nested'];
    const isArray = types?.includes('array') === true;
    if (isArray) {
      const items: JsonSchema = {};
      if (nestedRules.length > 0) {
        nested = { target: this.nestedClass(target, name, typeTarget), inItems: true };
      } else {
        const asserted = this.explicitTypes(itemRules, location);
        if (asserted) items.type = asserted.length === 1 ? asserted[0] : asserted;
        else Object.assign(items, constructorSchema(typeTarget) ?? impliedSchema(itemRules));
      }
      const itemTypes =
        typeof items.type === 'string' ? [items.type as JsonSchemaTypeName] : (items.type as JsonSchemaTypeName[] | undefined);
      const itemContext: KeywordContext = { types: nested ? ['object'] : itemTypes, location: `${location}[]`, debug: this.debug };
      for (const { metadata, rule } of itemRules) mergeKeywords(items, rule.keywords?.(metadata.constraints ?? [], itemContext));
      if (nested || Object.keys(items).length > 0) body.items = items;
    } else {
      // class-validator applies `each` rules to the value itself when it is not an array.
      for (const { metadata, rule } of itemRules) mergeKeywords(body, rule.keywords?.(metadata.constraints ?? [], context));
      if (nestedRules.length > 0) nested = { target: this.nestedClass(target, name, typeTarget ?? designType), inItems: false };
    }

    // @IsDefined() refuses null too: a property no rule gives a type would otherwise advertise null as accepted.
    if (definedRule && !optional && body.type === undefined && !nested) body.type = [...NON_NULL_TYPES];
    const hints = readHints(prototype, name);
    if (hints.format !== undefined) body.format = hints.format;
    const nullable = hints.nullable === true;
    const initialValue = initialValues.get(name);
    const defaultValue = initialValue !== undefined ? initialValue : hints.default;
    const examples = Array.isArray(hints.examples) ? hints.examples.filter((example) => isJsonValue(example)) : [];
    const trailing: JsonSchema = {};
    if (defaultValue !== undefined && isJsonValue(defaultValue) && (defaultValue !== null || nullable)) trailing.default = defaultValue;
    if (examples.length > 0) trailing.examples = examples;
    if (hints.deprecated === true) trailing.deprecated = true;
    const annotations: JsonSchema = {};
    if (hints.title !== undefined) annotations.title = hints.title;
    if (hints.description !== undefined) annotations.description = hints.description;
    // Conditional rules run before IS_DEFINED in class-validator, so @IsOptional wins over @IsDefined; an
    // initialiser fills a missing argument before validation.
    const required = !optional && rejectsMissing && initialValue === undefined;
    if (nestedRules.length > 0 && !optional && !rejectsMissing && initialValue === undefined) {
      // class-validator's @ValidateNested passes an absent value and fails null: the schema says just that (not
      // required, not nullable), and the author, who likely meant one of the two, is told how to say which.
      this.warn(nestedPresenceUnstated(location));
    }
    return { name, annotations, body, trailing, nested, nullable, required };
  }

  /** Intersection of the types the rules assert; `undefined` when no rule asserts one. */
  private explicitTypes(rules: readonly MappedRule[], location: string): JsonSchemaTypeName[] | undefined {
    let types: JsonSchemaTypeName[] | undefined;
    for (const { metadata, rule } of rules) {
      const asserted =
        typeof rule.type === 'function' ? rule.type(metadata.constraints ?? []) : rule.type === undefined ? undefined : [rule.type];
      if (!asserted) continue;
      if (!types) {
        types = [...asserted];
        continue;
      }
      const common = intersectTypes(types, asserted);
      if (common.length > 0) types = common;
      else
        this.debug(
          `${location}: '${metadata.name}' asserts type ${asserted.join('|')}, which contradicts ${types.join('|')}; kept ${types.join('|')}`,
        );
    }
    return types;
  }

  /** The class named by `@Type(() => X)`, if any. */
  private readTypeDecorator(target: McpClassRef, name: string, location: string): McpClassRef | undefined {
    const metadata = defaultMetadataStorage.findTypeMetadata(target, name);
    if (!metadata) return undefined;
    if (metadata.options?.discriminator) {
      this.debug(`${location}: @Type discriminator subtypes are not expanded; the schema uses the base class`);
    }
    try {
      const resolved = metadata.typeFunction({ newObject: {}, object: {}, property: name });
      return typeof resolved === 'function' ? resolved : undefined;
    } catch (error) {
      this.debug(`${location}: the @Type function threw (${error instanceof Error ? error.message : String(error)}); ignored`);
      return undefined;
    }
  }

  private nestedClass(target: McpClassRef, name: string, candidate: unknown): McpClassRef {
    if (typeof candidate === 'function' && !BUILT_IN_TYPES.has(candidate)) return candidate;
    throw new McpSchemaError(
      target.name,
      name,
      '@ValidateNested() needs the class of the nested value, and it cannot be read from the property type. ' +
        'Add @Type(() => NestedDto) from class-transformer to the property.',
    );
  }
}

/** The boot warning of a nested property that says neither `@IsDefined()` nor `@IsOptional()` (listed in docs/errors.md, boot warnings). */
export function nestedPresenceUnstated(location: string): string {
  return (
    `${location}: @ValidateNested() lets the property be absent but refuses null (class-validator), so the schema does not require it; ` +
    'add @IsDefined() to require it or @IsOptional() to allow null/absence'
  );
}

/** The cached value of `key`, built on first use. */
function cached<K, V>(cache: Map<K, V>, key: K, build: () => V): V {
  let value = cache.get(key);
  if (value === undefined) cache.set(key, (value = build()));
  return value;
}

/** Places a nested class's schema (inline or `$ref`) into its property, then applies `nullable`. */
function renderProperty(property: PropertyPlan, nested: JsonSchema | undefined): JsonSchema {
  let schema: JsonSchema;
  if (!nested || !property.nested) {
    schema = { ...property.annotations, ...property.body, ...property.trailing };
  } else if (property.nested.inItems) {
    schema = {
      ...property.annotations,
      ...property.body,
      items: { ...nested, ...(property.body.items as JsonSchema) },
      ...property.trailing,
    };
  } else {
    const inline = { ...nested };
    for (const key of Object.keys(property.annotations)) delete inline[key];
    // The nested schema (or its $defs entry) already says `type: 'object'`.
    const { type: _type, ...keywords } = property.body;
    schema = { ...property.annotations, ...inline, ...keywords, ...property.trailing };
  }
  return property.nullable ? withNull(schema) : schema;
}

/** Lets `null` through: added to `type` and `enum`, or an `anyOf` around a `$ref`. */
function withNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.$ref === 'string') {
    const { $ref, ...rest } = schema;
    return { ...rest, anyOf: [{ $ref }, { type: 'null' }] };
  }
  const result = { ...schema };
  if (typeof result.type === 'string') result.type = result.type === 'null' ? 'null' : [result.type, 'null'];
  else if (Array.isArray(result.type) && !result.type.includes('null')) result.type = [...(result.type as unknown[]), 'null'];
  if ('const' in result) {
    result.enum = [result.const, null];
    delete result.const;
  } else if (Array.isArray(result.enum) && !result.enum.includes(null)) {
    result.enum = [...(result.enum as unknown[]), null];
  }
  return result;
}

/** JSON Schema for a constructor found in `@Type()` or `design:type`; `undefined` when it says nothing. */
function constructorSchema(type: unknown): JsonSchema | undefined {
  switch (type) {
    case String:
      return { type: 'string' };
    case Number:
      return { type: 'number' };
    case Boolean:
      return { type: 'boolean' };
    case Date:
      return { type: 'string', format: 'date-time' };
    case Array:
      return { type: 'array' };
    default:
      // Object is what TypeScript emits for unions, interfaces and `unknown`: no information.
      return typeof type === 'function' && !BUILT_IN_TYPES.has(type) ? { type: 'object' } : undefined;
  }
}

function impliedSchema(rules: readonly MappedRule[]): JsonSchema | undefined {
  const implied = rules.find(({ rule }) => rule.impliedType !== undefined)?.rule.impliedType;
  return implied === undefined ? undefined : { type: implied };
}

function intersectTypes(left: readonly JsonSchemaTypeName[], right: readonly JsonSchemaTypeName[]): JsonSchemaTypeName[] {
  const result = new Set<JsonSchemaTypeName>();
  for (const type of left) {
    if (right.includes(type)) result.add(type);
    else if ((type === 'integer' && right.includes('number')) || (type === 'number' && right.includes('integer'))) result.add('integer');
  }
  return [...result];
}

/** Every rule must hold, so bounds keep the stricter value and other conflicts become `allOf` entries. */
function mergeKeywords(target: JsonSchema, source: JsonSchema | undefined): void {
  if (!source) return;
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (!(key in target)) {
      target[key] = value;
      continue;
    }
    const current = target[key];
    if (JSON.stringify(current) === JSON.stringify(value)) continue;
    if (typeof current === 'number' && typeof value === 'number' && LOWER_BOUNDS.has(key)) target[key] = Math.max(current, value);
    else if (typeof current === 'number' && typeof value === 'number' && UPPER_BOUNDS.has(key)) target[key] = Math.min(current, value);
    else if (key === 'enum' && Array.isArray(current) && Array.isArray(value)) target[key] = current.filter((item) => value.includes(item));
    else target.allOf = [...((target.allOf as JsonSchema[] | undefined) ?? []), { [key]: value }];
  }
}

/** Strings, finite numbers, booleans, null, and arrays / plain objects of those (no cycles). */
function isJsonValue(value: unknown, seen = new Set<object>()): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || seen.has(value) || !(Array.isArray(value) || isObjectLiteral(value))) return false;
  seen.add(value);
  const result = Object.values(value).every((item) => isJsonValue(item, seen));
  seen.delete(value);
  return result;
}

/** `@McpProperty()` options over `@ApiProperty()` ones (read from swagger's metadata key, without importing it). */
function readHints(prototype: object, name: string): PropertyHints {
  const mcp = Reflect.getMetadata(MCP_PROPERTY_METADATA, prototype, name) as McpPropertyOptions | undefined;
  const swagger = readSwaggerHints(prototype, name);
  return {
    title: mcp?.title ?? swagger.title,
    description: mcp?.description ?? swagger.description,
    examples: mcp?.examples ?? swagger.examples,
    default: swagger.default,
    nullable: mcp?.nullable ?? swagger.nullable,
    deprecated: mcp?.deprecated ?? swagger.deprecated,
    format: mcp?.format,
  };
}

function readSwaggerHints(prototype: object, name: string): PropertyHints {
  const raw = Reflect.getMetadata(SWAGGER_API_MODEL_PROPERTIES, prototype, name) as unknown;
  if (!isPlainObject(raw)) return {};
  let examples: unknown[] | undefined;
  if (Array.isArray(raw.examples)) examples = raw.examples;
  // OpenAPI's named examples: { name: { summary, value } }.
  else if (isPlainObject(raw.examples))
    examples = Object.values(raw.examples).map((example) => (isPlainObject(example) && 'value' in example ? example.value : example));
  else if (raw.example !== undefined) examples = [raw.example];
  return {
    title: typeof raw.title === 'string' ? raw.title : undefined,
    description: typeof raw.description === 'string' ? raw.description : undefined,
    examples,
    default: raw.default,
    nullable: raw.nullable === true ? true : undefined,
    deprecated: raw.deprecated === true ? true : undefined,
  };
}
