import type { JsonSchema } from '../../core/json-schema.types.js';
import { isPlainObject } from '../../core/plain-object.js';

/** The `null` values of one arguments object, by the dotted paths class-validator's errors flatten to (`stops.0.name`). */
export interface NullFindings {
  /** Nulls the schema does not allow: VALIDATION_ERROR, whatever class-validator says. */
  readonly refused: readonly string[];
  /** Nulls the schema explicitly allows (`@McpProperty({ nullable: true })`): accepted, whatever class-validator says. */
  readonly declared: readonly string[];
}

/** Finds the nulls of an arguments object and what the schema says about each. */
export type NullCheck = (args: unknown) => NullFindings;

/**
 * What a schema says about `null`: `refused` (no null), `declared` (a keyword lists null: `type`, `enum`, `const`),
 * `open` (no keyword constrains it, e.g. `{}`; the validator's own rules decide).
 */
type NullVerdict = 'refused' | 'declared' | 'open';

/** The null rule of one value, and of the members it may hold (declared properties, array items). */
interface ValueRule {
  readonly nulls: NullVerdict;
  properties?: ReadonlyMap<string, ValueRule>;
  items?: ValueRule;
}

/** The findings of one check while it runs. */
type Found = { refused: string[]; declared: string[] };

const NO_NULLS: NullFindings = Object.freeze({ refused: Object.freeze([]), declared: Object.freeze([]) });

/**
 * Compiles, once at boot, the null check of a generated inputSchema: class-validator's `@IsOptional()` skips
 * `null` as it skips a missing value, so the server would accept nulls the advertised schema refuses. The check
 * walks only the declared properties (nested objects, `$ref`s and array items included) of the arguments.
 */
export function compileNullCheck(schema: JsonSchema): NullCheck {
  const root = new NullRuleBuilder(schema).ruleFor(schema);
  if (!root.properties) return () => NO_NULLS;
  const properties = root.properties;
  return (args) => {
    if (!isPlainObject(args)) return NO_NULLS;
    const findings: Found = { refused: [], declared: [] };
    checkProperties(args, properties, '', findings);
    return findings.refused.length === 0 && findings.declared.length === 0 ? NO_NULLS : findings;
  };
}

function checkProperties(
  value: Record<string, unknown>,
  properties: ReadonlyMap<string, ValueRule>,
  prefix: string,
  findings: Found,
): void {
  for (const [name, rule] of properties) {
    if (Object.hasOwn(value, name)) checkValue(value[name], rule, prefix ? `${prefix}.${name}` : name, findings);
  }
}

function checkValue(value: unknown, rule: ValueRule, path: string, findings: Found): void {
  if (value === null) {
    if (rule.nulls === 'refused') findings.refused.push(path);
    else if (rule.nulls === 'declared') findings.declared.push(path);
  } else if (Array.isArray(value)) {
    if (rule.items) for (let index = 0; index < value.length; index++) checkValue(value[index], rule.items, `${path}.${index}`, findings);
  } else if (rule.properties && isPlainObject(value)) {
    checkProperties(value, rule.properties, path, findings);
  }
}

/** Builds the rules of one schema document; `$ref`s resolve against its root, and cycles share one rule. */
class NullRuleBuilder {
  private readonly rules = new Map<object, ValueRule>();

  constructor(private readonly root: JsonSchema) {}

  ruleFor(schema: unknown): ValueRule {
    if (!isPlainObject(schema)) return { nulls: schema === false ? 'refused' : 'open' };
    const known = this.rules.get(schema);
    if (known) return known;
    const rule: ValueRule = { nulls: this.verdict(schema, new Set()) };
    // Registered before the members are built, so a recursive DTO's reference to itself finds it.
    this.rules.set(schema, rule);
    const properties = new Map<string, ValueRule>();
    let items: ValueRule | undefined;
    for (const part of this.shapes(schema, new Set())) {
      if (isPlainObject(part.properties)) {
        for (const [name, member] of Object.entries(part.properties)) if (!properties.has(name)) properties.set(name, this.ruleFor(member));
      }
      if (items === undefined && part.items !== undefined) items = this.ruleFor(part.items);
    }
    if (properties.size > 0) rule.properties = properties;
    if (items) rule.items = items;
    return rule;
  }

  /** The schema and the sub-schemas that also describe its value: `$ref` targets and `allOf`/`anyOf`/`oneOf` branches. */
  private shapes(schema: JsonSchema, seen: Set<object>): JsonSchema[] {
    if (seen.has(schema)) return [];
    seen.add(schema);
    const result = [schema];
    const target = this.resolve(schema.$ref);
    if (target) result.push(...this.shapes(target, seen));
    for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
      const branches = schema[keyword];
      if (Array.isArray(branches)) for (const branch of branches) if (isPlainObject(branch)) result.push(...this.shapes(branch, seen));
    }
    return result;
  }

  /** Every keyword of a schema object must hold, so one that refuses null refuses it for the whole schema. */
  private verdict(schema: JsonSchema, seen: Set<object>): NullVerdict {
    if (seen.has(schema)) return 'open';
    seen.add(schema);
    const verdicts: NullVerdict[] = [];
    if (schema.type !== undefined)
      verdicts.push((Array.isArray(schema.type) ? schema.type : [schema.type]).includes('null') ? 'declared' : 'refused');
    if ('const' in schema) verdicts.push(schema.const === null ? 'declared' : 'refused');
    if (Array.isArray(schema.enum)) verdicts.push(schema.enum.includes(null) ? 'declared' : 'refused');
    const target = this.resolve(schema.$ref);
    if (target) verdicts.push(this.verdict(target, seen));
    if (schema.not !== undefined) verdicts.push(this.branchVerdict(schema.not, seen) === 'refused' ? 'open' : 'refused');
    if (Array.isArray(schema.allOf)) verdicts.push(...schema.allOf.map((branch) => this.branchVerdict(branch, seen)));
    if (Array.isArray(schema.anyOf)) verdicts.push(anyOfVerdict(schema.anyOf.map((branch) => this.branchVerdict(branch, seen))));
    if (Array.isArray(schema.oneOf)) {
      const accepting = schema.oneOf.map((branch) => this.branchVerdict(branch, seen)).filter((verdict) => verdict !== 'refused');
      verdicts.push(accepting.length === 1 ? accepting[0] : 'refused');
    }
    if (verdicts.includes('refused')) return 'refused';
    return verdicts.includes('declared') ? 'declared' : 'open';
  }

  private branchVerdict(branch: unknown, seen: Set<object>): NullVerdict {
    if (branch === false) return 'refused';
    return isPlainObject(branch) ? this.verdict(branch, new Set(seen)) : 'open';
  }

  /** A local JSON pointer (`#/$defs/Node`); anything else resolves to nothing. */
  private resolve(ref: unknown): JsonSchema | undefined {
    if (typeof ref !== 'string' || !ref.startsWith('#')) return undefined;
    let current: unknown = this.root;
    for (const token of ref.slice(1).split('/').slice(1)) {
      if (!isPlainObject(current) && !Array.isArray(current)) return undefined;
      current = (current as Record<string, unknown>)[token.replaceAll('~1', '/').replaceAll('~0', '~')];
    }
    return isPlainObject(current) ? current : undefined;
  }
}

function anyOfVerdict(verdicts: readonly NullVerdict[]): NullVerdict {
  if (verdicts.includes('declared')) return 'declared';
  return verdicts.includes('open') ? 'open' : 'refused';
}
