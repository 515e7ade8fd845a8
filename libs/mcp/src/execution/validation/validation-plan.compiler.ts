import { isObjectLiteral } from '../../core/plain-object.js';
import 'reflect-metadata';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { McpClassRef } from '../../core/class-ref.js';
import { BUILT_IN_TYPES, lineage, readValidationMetadata, type ValidationMetadata } from './validation-metadata.reader.js';
import { VALIDATOR_KEYWORDS } from './validator-keywords.js';

/** One failed property, by dotted path (`city`, `stops.0.name`), with class-validator's messages for it, in its order. */
export interface PlanFailure {
  readonly path: string;
  readonly reasons: readonly string[];
}

/**
 * What a compiled plan makes of one arguments object: the DTO instance (what `plainToInstance` builds) and the
 * failures (what `validateSync` reports with whitelist, forbidNonWhitelisted and forbidUnknownValues, flattened).
 */
export interface PlanOutcome {
  readonly value: Record<string, unknown>;
  readonly failures: readonly PlanFailure[];
}

/**
 * A DTO's validation compiled at boot. Returns `undefined` for the rare input it leaves to the reference path
 * (class-transformer + class-validator): a value no JSON parser produces, or an object with an own `constructor` key,
 * which class-transformer mistakes for the object's class.
 */
export type ValidationPlan = (raw: Record<string, unknown>) => PlanOutcome | undefined;

/** The plan of a DTO, or why it has none (then every call takes the reference path). */
export type PlanCompilation =
  { readonly plan: ValidationPlan; readonly reason?: undefined } | { readonly plan?: undefined; readonly reason: string };

/** A class-validator constraint as its storage holds it (the package does not export the class). */
interface ConstraintMetadata {
  readonly name?: string;
  readonly async?: boolean;
  readonly instance: { validate(value: unknown, args: unknown): unknown; defaultMessage?: (args: unknown) => string };
}

/** Arguments class-validator passes to a constraint and its message. */
interface ValidationArguments {
  readonly targetName: string | undefined;
  readonly property: string;
  readonly object: object;
  readonly value: unknown;
  constraints: unknown[];
}

/** One rule that calls a constraint: `@IsString()`, `@Min(1)`, `@IsDefined()`. */
interface RuleCheck {
  readonly metadata: ValidationMetadata;
  /** The key of the rule's message in class-validator's `constraints` (`isString`). */
  readonly key: string;
  readonly constraint: ConstraintMetadata;
  /**
   * The constraint's instance, from class-validator's container on first use (once, where class-validator asks on
   * every call): its default container finds an instance by a scan of all of them, one per decorator use.
   */
  instance?: ConstraintMetadata['instance'];
}

interface PropertyPlan {
  readonly name: string;
  /** `@IsOptional()` conditions: every one must hold for the rules to run. */
  readonly conditions: readonly ((object: object, value: unknown) => boolean)[];
  readonly defined: readonly RuleCheck[];
  readonly rules: readonly RuleCheck[];
  /** `@ValidateNested()` rules (class-validator runs each one). */
  readonly nested: readonly ValidationMetadata[];
  /** The plan of the `@Type()` class of a nested property: every object at that place is an instance of it. */
  readonly nestedPlan?: ClassPlan;
}

interface ClassPlan {
  readonly type: new () => Record<string, unknown>;
  /** class-validator's `groupByPropertyName` result, looked up the way its whitelist does. */
  readonly grouped: Record<string, ValidationMetadata[]>;
  readonly properties: PropertyPlan[];
  /** Properties with `@Type(() => NestedDto)`: their values become instances of that class. */
  readonly typed: Map<string, ClassPlan>;
}

/**
 * Names of class-validator's own decorators the plan runs: those the schema reader maps to keywords, and the
 * presence checks. Any other rule (a custom `@Validate()` class, `registerDecorator`) keeps the reference path.
 */
const BUILT_IN_RULES = new Set([...Object.keys(VALIDATOR_KEYWORDS), 'isDefined', 'isEmpty', 'isNotEmpty']);

/** Types `@Type()` converts values to (String, Number, ...) or copies specially: the plan does not convert. */
const CONVERTING_TYPES = new Set([...BUILT_IN_TYPES, ...(typeof Buffer === 'function' ? [Buffer] : [])]);

/** Returned for an input the plan leaves to the reference path. */
const REFERENCE = Symbol('reference path');

class Unsupported extends Error {}

/**
 * Compiles, once at boot, a DTO's validation into plain functions that build the instance `plainToInstance` builds
 * and report the failures `validateSync` reports (messages included), calling the rules' own constraints without
 * per-call metadata lookups. A DTO the plan does not reproduce exactly gets a reason and keeps the reference path.
 */
export function compileValidationPlan(type: McpClassRef): PlanCompilation {
  try {
    const transformer = TransformerMetadata.read();
    const root = new PlanBuilder(transformer).classPlan(type);
    return { plan: (raw) => runPlan(root, raw) };
  } catch (error) {
    if (error instanceof Unsupported) return { reason: error.message };
    throw error;
  }
}

function runPlan(root: ClassPlan, raw: Record<string, unknown>): PlanOutcome | undefined {
  if (!isObjectLiteral(raw)) return undefined;
  const value = buildInstance(root, raw);
  if (value === REFERENCE) return undefined;
  // As argument-validator's toInstance: a declared field the caller did not send and that holds nothing is dropped.
  for (const key of Object.keys(value)) if (value[key] === undefined && !(key in raw)) delete value[key];
  const failures: PlanFailure[] = [];
  validateObject(value, root, '', failures);
  return { value, failures };
}

// ---------------------------------------------------------------------------------------------------------------
// Building the instance: class-transformer 0.5 `plainToInstance` with its default options, for JSON values.

function buildInstance(plan: ClassPlan, raw: Record<string, unknown>): Record<string, unknown> | typeof REFERENCE {
  const instance = new plan.type();
  const prototype = (instance.constructor as { prototype?: object } | undefined)?.prototype;
  for (const key of Object.keys(raw)) {
    if (key === '__proto__' || key === 'constructor') continue;
    // class-transformer never overwrites a method or a getter-only property of the class.
    if (prototype) {
      const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
      if ((descriptor && !descriptor.set) || instance[key] instanceof Function) continue;
    }
    const nested = plan.typed.get(key);
    const value = nested ? toTyped(raw[key], nested) : toPlain(raw[key]);
    if (value === REFERENCE) return REFERENCE;
    instance[key] = value;
  }
  return instance;
}

/** A value of a `@Type(() => NestedDto)` property: objects become instances, at any depth of arrays. */
function toTyped(value: unknown, plan: ClassPlan): unknown {
  if (Array.isArray(value)) return copyArray(value, toTyped, plan);
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return isObjectLiteral(value) ? buildInstance(plan, value) : REFERENCE;
}

/** A value without `@Type()`: a deep copy, as class-transformer makes of plain JSON. */
function toPlain(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return copyArray(value, toPlain, undefined);
  // An own `constructor` key is taken for the object's class by class-transformer: the reference path decides.
  if (!isObjectLiteral(value) || Object.hasOwn(value, 'constructor')) return REFERENCE;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === '__proto__') continue;
    const descriptor = Object.getOwnPropertyDescriptor(Object.prototype, key);
    if ((descriptor && !descriptor.set) || copy[key] instanceof Function) continue;
    const member = toPlain(value[key]);
    if (member === REFERENCE) return REFERENCE;
    copy[key] = member;
  }
  return copy;
}

/** Each item of a plain array through `copy` (which gets `plan`); an array of a subclass is left to the reference path. */
function copyArray<P>(value: unknown[], copy: (item: unknown, plan: P) => unknown, plan: P): unknown {
  if (Object.getPrototypeOf(value) !== Array.prototype) return REFERENCE;
  const result: unknown[] = [];
  for (const item of value) {
    const copied = copy(item, plan);
    if (copied === REFERENCE) return REFERENCE;
    result.push(copied);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// Validating it: class-validator 0.15 `ValidationExecutor`, for the rule types the builder accepts.

/** Collects one property's failures as class-validator's ValidationError tree, flattened in its order. */
function validateObject(object: Record<string, unknown>, plan: ClassPlan, prefix: string, failures: PlanFailure[]): void {
  for (const key of Object.keys(object)) {
    const group = plan.grouped[key];
    if (!group || group.length === 0) failures.push({ path: join(prefix, key), reasons: [`property ${key} should not exist`] });
  }
  const targetName = targetNameOf(object);
  for (const property of plan.properties) validateProperty(object, targetName, property, prefix, failures);
}

function validateProperty(
  object: Record<string, unknown>,
  targetName: string | undefined,
  property: PropertyPlan,
  prefix: string,
  failures: PlanFailure[],
): void {
  const value = object[property.name];
  let applies = true;
  for (const condition of property.conditions) applies = condition(object, value) && applies;
  if (!applies) return;
  // One arguments object for the property's rules (class-validator builds one per rule; the built-in
  // constraints only read it while they run), and a fresh one for each message, as class-validator does.
  const args: ValidationArguments = { targetName, property: property.name, object, value, constraints: [] };
  let constraints = runRules(value, property.defined, args, undefined);
  constraints = runRules(value, property.rules, args, constraints);
  const path = join(prefix, property.name);
  if (property.nested.length > 0) validateNested(value, property, path, constraints ?? {}, failures);
  else if (constraints) failures.push({ path, reasons: Object.values(constraints) });
}

/** Runs the rules in order; the messages of those that fail, by constraint key (created at the first failure). */
function runRules(
  value: unknown,
  rules: readonly RuleCheck[],
  args: ValidationArguments,
  found: Record<string, string> | undefined,
): Record<string, string> | undefined {
  let constraints = found;
  for (const rule of rules) {
    args.constraints = rule.metadata.constraints;
    let valid: boolean;
    const instance = (rule.instance ??= rule.constraint.instance);
    if (!rule.metadata.each || !Array.isArray(value)) valid = Boolean(instance.validate(value, args));
    else valid = value.map((item) => instance.validate(item, args)).every((result) => result);
    if (!valid) (constraints ??= {})[rule.key] = messageOf(rule.metadata, { ...args }, instance);
  }
  return constraints;
}

/**
 * `@ValidateNested()`: arrays item by item (their paths end in the index), objects by their class's plan. The
 * failures at `path` (its `constraints`, found so far and here) go first, then its children's.
 */
function validateNested(
  value: unknown,
  property: PropertyPlan,
  path: string,
  constraints: Record<string, string>,
  failures: PlanFailure[],
): void {
  const children: PlanFailure[] = [];
  for (const metadata of property.nested) {
    if (Array.isArray(value)) {
      value.forEach((item: unknown, index) => validateNested(item, property, join(path, String(index)), {}, children));
    } else if (value instanceof Object) {
      // Every object at a nested place was built as an instance of the @Type() class (toTyped).
      validateObject(value as Record<string, unknown>, property.nestedPlan as ClassPlan, path, children);
    } else if (value !== undefined) {
      const args: ValidationArguments = {
        targetName: targetNameOf(metadata.target),
        property: metadata.propertyName,
        object: metadata.target as object,
        value,
        constraints: metadata.constraints,
      };
      constraints[metadata.type] = messageOf(metadata, args, undefined);
    }
  }
  const reasons = Object.values(constraints);
  if (reasons.length > 0) failures.push({ path, reasons });
  for (const child of children) failures.push(child);
}

function join(prefix: string, name: string): string {
  return prefix ? `${prefix}.${name}` : name;
}

function targetNameOf(object: unknown): string | undefined {
  const constructor = (object as { constructor?: { name?: string } }).constructor;
  return constructor ? constructor.name : undefined;
}

/** class-validator's `createValidationError` message: the rule's own message, or the constraint's default. */
function messageOf(metadata: ValidationMetadata, args: ValidationArguments, instance: ConstraintMetadata['instance'] | undefined): string {
  let message: unknown = metadata.message || '';
  if (!metadata.message && instance && instance.defaultMessage instanceof Function) message = instance.defaultMessage(args);
  return replaceMessageTokens(message, args) as string;
}

/** class-validator's `ValidationUtils.replaceMessageSpecialTokens` (not exported by the package), to the letter. */
function replaceMessageTokens(message: unknown, args: ValidationArguments): string | undefined {
  let text: string | undefined;
  if (message instanceof Function) text = (message as (args: ValidationArguments) => string)(args);
  else if (typeof message === 'string') text = message;
  if (text && Array.isArray(args.constraints)) {
    args.constraints.forEach((constraint, index) => {
      text = (text as string).replace(new RegExp(`\\$constraint${index + 1}`, 'g'), constraintToString(constraint));
    });
  }
  if (text && args.value !== undefined && args.value !== null && ['string', 'boolean', 'number'].includes(typeof args.value))
    text = text.replace(/\$value/g, args.value as string);
  if (text) text = text.replace(/\$property/g, args.property);
  if (text) text = text.replace(/\$target/g, args.targetName as string);
  return text;
}

function constraintToString(constraint: unknown): string {
  if (Array.isArray(constraint)) return constraint.join(', ');
  if (typeof constraint === 'symbol') return `${constraint.description}`;
  return `${constraint as string}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Compiling: what the plan can reproduce, decided per class from both libraries' metadata.

interface TypeMetadata {
  readonly propertyName: string;
  readonly reflectedType: unknown;
  readonly typeFunction?: (options?: unknown) => unknown;
  readonly options?: { discriminator?: unknown };
}

/** The class-transformer decorators that change a value, by the name of their metadata map. */
const TRANSFORM_DECORATORS = { transform: '@Transform', expose: '@Expose', exclude: '@Exclude' } as const;

/** class-transformer's metadata maps (its storage has no public way to list a class's decorators). */
class TransformerMetadata {
  private constructor(private readonly maps: Record<'type' | 'transform' | 'expose' | 'exclude', Map<unknown, Map<unknown, unknown>>>) {}

  static read(): TransformerMetadata {
    const storage = defaultMetadataStorage as unknown as Record<string, unknown>;
    const maps = {
      type: storage._typeMetadatas,
      transform: storage._transformMetadatas,
      expose: storage._exposeMetadatas,
      exclude: storage._excludeMetadatas,
    };
    // Tag check rather than instanceof: class-transformer may live in another realm (Jest's module sandboxes).
    for (const map of Object.values(maps))
      if (Object.prototype.toString.call(map) !== '[object Map]')
        throw new Unsupported("class-transformer's metadata storage is not readable");
    return new TransformerMetadata(maps as TransformerMetadata['maps']);
  }

  /** Throws when the class (or an ancestor) uses @Transform, @Expose or @Exclude. */
  assertNoTransforms(target: McpClassRef): void {
    for (const type of lineage(target)) {
      for (const [kind, label] of Object.entries(TRANSFORM_DECORATORS)) {
        const entries = this.maps[kind as keyof typeof TRANSFORM_DECORATORS].get(type);
        if (entries && entries.size > 0) throw new Unsupported(`${type.name} uses ${label}`);
      }
    }
  }

  /** `@Type()` metadata by property, own first, as class-transformer's `findTypeMetadata` resolves it. */
  types(target: McpClassRef): Map<string, TypeMetadata> {
    const result = new Map<string, TypeMetadata>();
    for (const type of lineage(target)) {
      for (const [name, metadata] of this.maps.type.get(type) ?? []) {
        if (typeof name !== 'string') throw new Unsupported(`${type.name} has @Type() on a symbol property`);
        if (!result.has(name)) result.set(name, metadata as TypeMetadata);
      }
    }
    return result;
  }
}

class PlanBuilder {
  private readonly plans = new Map<McpClassRef, ClassPlan>();
  private readonly storage = getMetadataStorage();

  constructor(private readonly transformer: TransformerMetadata) {}

  classPlan(target: McpClassRef): ClassPlan {
    const known = this.plans.get(target);
    if (known) return known;
    this.transformer.assertNoTransforms(target);
    const metadata = readValidationMetadata(target);
    // forbidUnknownValues answers "an unknown value was passed" for a class without rules: not reproduced.
    if (metadata.length === 0) throw new Unsupported(`${target.name} has no validation rules`);
    const grouped = this.storage.groupByPropertyName(metadata) as Record<string, ValidationMetadata[]>;
    const plan: ClassPlan = { type: target as ClassPlan['type'], grouped, properties: [], typed: new Map() };
    // Registered before the members are compiled, so a recursive DTO finds its own plan.
    this.plans.set(target, plan);
    const types = this.transformer.types(target);
    for (const name of Object.keys(grouped)) plan.properties.push(this.propertyPlan(target, name, grouped[name], types, plan));
    for (const name of types.keys()) {
      if (!plan.typed.has(name)) throw new Unsupported(`${target.name}.${name}: @Type() without @ValidateNested() converts the value`);
    }
    return plan;
  }

  private propertyPlan(
    target: McpClassRef,
    name: string,
    group: readonly ValidationMetadata[],
    types: Map<string, TypeMetadata>,
    plan: ClassPlan,
  ): PropertyPlan {
    const location = `${target.name}.${name}`;
    const conditions: PropertyPlan['conditions'][number][] = [];
    const defined: RuleCheck[] = [];
    const rules: RuleCheck[] = [];
    const nested: ValidationMetadata[] = [];
    for (const metadata of group) {
      if (typeof metadata.propertyName !== 'string') throw new Unsupported(`${target.name} has a rule on a symbol property`);
      if (typeof metadata.target !== 'function') throw new Unsupported(`${location}: schema-based rules`);
      if (metadata.groups && metadata.groups.length > 0) throw new Unsupported(`${location}: validation groups`);
      if ((metadata as { validateIf?: unknown }).validateIf) throw new Unsupported(`${location}: a validateIf option`);
      switch (metadata.type) {
        case ValidationTypes.CONDITIONAL_VALIDATION:
          if (metadata.name !== 'isOptional') throw new Unsupported(`${location}: @ValidateIf`);
          conditions.push(metadata.constraints[0] as PropertyPlan['conditions'][number]);
          break;
        case ValidationTypes.IS_DEFINED:
          defined.push(this.ruleCheck(metadata, location));
          break;
        case ValidationTypes.CUSTOM_VALIDATION:
          if (!metadata.name || !BUILT_IN_RULES.has(metadata.name))
            throw new Unsupported(`${location}: custom validator '${metadata.name ?? metadata.constraintCls?.name ?? 'anonymous'}'`);
          rules.push(this.ruleCheck(metadata, location));
          break;
        case ValidationTypes.NESTED_VALIDATION:
          nested.push(metadata);
          break;
        case ValidationTypes.WHITELIST:
          break;
        default:
          throw new Unsupported(`${location}: '${metadata.type}' rules`);
      }
    }
    const typeMetadata = types.get(name);
    let nestedPlan: ClassPlan | undefined;
    if (typeMetadata) {
      if (nested.length === 0) throw new Unsupported(`${location}: @Type() without @ValidateNested() converts the value`);
      nestedPlan = this.classPlan(this.nestedClass(typeMetadata, location));
      plan.typed.set(name, nestedPlan);
    } else if (nested.length > 0) {
      // Without @Type() an object stays a plain object, which class-validator refuses as an unknown value.
      throw new Unsupported(`${location}: @ValidateNested() without @Type()`);
    }
    return { name, conditions, defined, rules, nested, nestedPlan };
  }

  private nestedClass(metadata: TypeMetadata, location: string): McpClassRef {
    if (metadata.options?.discriminator) throw new Unsupported(`${location}: @Type() with a discriminator`);
    // A type function that reads its options may pick a class per value: only class-transformer knows which.
    if (typeof metadata.typeFunction !== 'function' || metadata.typeFunction.length > 0)
      throw new Unsupported(`${location}: a @Type() function that reads its options`);
    const resolved = metadata.typeFunction();
    if (typeof resolved !== 'function' || CONVERTING_TYPES.has(resolved)) throw new Unsupported(`${location}: @Type() converts the value`);
    // class-transformer builds an array value from the property's design:type: only Array (or a class) gives [].
    const reflected = metadata.reflectedType;
    if (reflected === Set || reflected === Map) throw new Unsupported(`${location}: a Set or Map property`);
    if (typeof reflected === 'function' && reflected !== Array && 'push' in (reflected.prototype as object))
      throw new Unsupported(`${location}: a property type with a push method`);
    return resolved as McpClassRef;
  }

  private ruleCheck(metadata: ValidationMetadata, location: string): RuleCheck {
    const constraints = this.storage.getTargetValidatorConstraints(metadata.constraintCls) as unknown as ConstraintMetadata[];
    if (constraints.length !== 1)
      throw new Unsupported(`${location}: '${metadata.name}' has ${constraints.length} constraint implementations`);
    const [constraint] = constraints;
    if (constraint.async) throw new Unsupported(`${location}: async validator '${metadata.name}'`);
    return { metadata, key: constraint.name ? constraint.name : metadata.type, constraint };
  }
}
