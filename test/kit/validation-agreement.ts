/**
 * The agreement check of compiled validation plans (not built, not exported): for each DTO, the plan and the
 * reference path (class-transformer + class-validator, as `validateArguments` runs it without a plan) must give the
 * same answer, instance (class and key order at every level), failed fields and messages, on every edge value in
 * every declared property and on random arguments (fast-check) grown from a valid sample. The same idea as the
 * schema factory's `expectAgreement` (JSON Schema vs validator), for the plan vs the libraries it replaces. The
 * advertised JSON Schema must also agree with validation on each property's presence: absent and `null` are accepted
 * or refused by both (a nested `@ValidateNested()` property without `@IsDefined()` is absent-yes, null-no on both).
 */
import { describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { validateArguments } from '../../libs/mcp/src/execution/validation/dto-validation.js';
import type { ArgumentValidation } from '../../libs/mcp/src/execution/validation/argument-validator.interface.js';
import { argumentValidationMode, type ArgumentValidationMode } from '../../libs/mcp/src/execution/validation/validation-mode.js';
import { DtoSchemaFactory } from '../../libs/mcp/src/features/tools/schema/dto-schema.factory.js';
import { compileValidationPlan } from '../../libs/mcp/src/execution/validation/validation-plan.compiler.js';

type DtoClass = new () => object;

/** A DTO and arguments it accepts, which the generated inputs start from. */
export type PlanAgreementCase = readonly [DtoClass, Record<string, unknown>];

/** Values on the edges of common rules (lengths, ranges, enums, formats, nesting), mixed with arbitrary JSON. */
const EDGE_VALUES: readonly unknown[] = [
  '',
  'a',
  'ab',
  'abcdef',
  'yes',
  'root',
  'red',
  'celsius',
  'fahrenheit',
  'high',
  'Paris',
  '北京',
  'x'.repeat(101),
  'bench-tag',
  'Bench',
  'a@b.co',
  'not an email',
  'https://example.com/x',
  '2026-01-02T03:04:05Z',
  '2026-01-02',
  '127.0.0.1',
  '::1',
  '3b241101-e2bb-4255-8caf-4136c566a962',
  '$value $property $target',
  0,
  1,
  -1,
  2,
  3,
  5,
  0.5,
  14,
  15,
  30,
  31,
  60,
  61,
  -90,
  -91,
  200,
  201,
  1000,
  1001,
  1.5,
  true,
  false,
  null,
  [],
  ['a'],
  ['a', 'a'],
  ['a', 'b', 'c', 'd'],
  ['toolong'],
  [1, 2],
  [1.5],
  [null],
  {},
  { lat: 1, lon: 2 },
  { lat: 1, lon: '2', extra: true },
  { lat: 1, lon: 2, label: null },
  [{ lat: 1, lon: 2 }, { lat: 'x' }, 3, null, [{ lat: 1 }]],
  { name: 'root', children: [{ name: 'leaf' }, { name: 1, children: [{}] }, 'twig'] },
  { toString: 1, hasOwnProperty: 2, valueOf: { a: 1 } },
  { id: 'c1', name: 'Beijing', nameZh: '北京', country: 'CN' },
];

/** Keys the DTOs do not declare, some of which class-transformer treats specially. */
const EXTRA_KEYS = ['extra', 'toString', 'hasOwnProperty', 'valueOf', '__proto__', '0', 'constructor'];

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const propertyValue = fc.oneof({ arbitrary: fc.constantFrom(...EDGE_VALUES), weight: 4 }, { arbitrary: jsonValue, weight: 1 });

/**
 * Arguments objects for `dto`: each declared property most often its value in `valid`, else absent, null, an edge
 * value or any JSON; sometimes extra keys, sometimes in another order.
 */
function argumentsFor(dto: DtoClass, valid: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const schema = new DtoSchemaFactory().forClass(dto);
  const declared = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  const entry = (name: string) =>
    fc
      .oneof(
        { arbitrary: fc.constant(valid[name]), weight: 6 },
        { arbitrary: fc.constant(undefined), weight: 1 },
        { arbitrary: propertyValue, weight: 2 },
      )
      .map((value) => [name, value] as const);
  const extras = fc.array(fc.tuple(fc.constantFrom(...EXTRA_KEYS), jsonValue), { maxLength: 2 });
  return fc.tuple(fc.tuple(...declared.map(entry)), extras, fc.boolean()).map(([entries, extra, extrasFirst]) => {
    const pairs = [...entries.filter(([, value]) => value !== undefined), ...extra];
    if (extrasFirst) pairs.reverse();
    // Through JSON, as from the wire: `__proto__` stays an own key (Object.fromEntries and JSON.parse both define it).
    return copyOf(Object.fromEntries(pairs));
  });
}

function copyOf(raw: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
}

/** A value with the class of every object and the order of its keys made visible, for a deep comparison. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value === null || typeof value !== 'object') return value;
  const prototype = Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null;
  return {
    class: prototype?.constructor?.name ?? null,
    entries: Object.keys(value).map((key) => [key, shapeOf((value as Record<string, unknown>)[key])]),
  };
}

function outcomeOf(validation: ArgumentValidation): unknown {
  return validation.valid ? { valid: true, value: shapeOf(validation.value) } : validation;
}

function modesOf(dto: DtoClass): { planned: ArgumentValidationMode; reference: ArgumentValidationMode } {
  const planned = argumentValidationMode(dto, new DtoSchemaFactory().forClass(dto));
  const { plan: _plan, ...reference } = planned;
  return { planned, reference };
}

/** Runs the agreement for each case: a plan compiles, the sample is valid, and plan and reference agree. */
export function describePlanAgreement(cases: readonly PlanAgreementCase[], numRuns = 500): void {
  describe.each(cases.map(([dto, valid]) => [dto.name, dto, valid] as const))(
    '%s: plan vs class-transformer + class-validator',
    (_name, dto, valid) => {
      const { planned, reference } = modesOf(dto);

      it('compiles a plan, and the valid sample passes', async () => {
        expect(await validateArguments(dto, copyOf(valid), reference)).toMatchObject({ valid: true });
        expect(compileValidationPlan(dto)).toEqual({ plan: expect.any(Function) });
        expect(planned.plan).toEqual(expect.any(Function));
      });

      it('agrees with the reference path on every edge value in every declared property, and on extra keys', async () => {
        const declared = Object.keys((new DtoSchemaFactory().forClass(dto).properties as Record<string, unknown> | undefined) ?? {});
        const samples = [
          ...declared.flatMap((name) => [...EDGE_VALUES, undefined].map((value) => copyOf({ ...valid, [name]: value }))),
          ...EXTRA_KEYS.map((key) => copyOf(Object.fromEntries([...Object.entries(valid), [key, 1]]))),
        ];
        for (const raw of samples) {
          const expected = outcomeOf(await validateArguments(dto, copyOf(raw), reference));
          expect({ raw, outcome: outcomeOf(await validateArguments(dto, copyOf(raw), planned)) }).toEqual({ raw, outcome: expected });
        }
      });

      it('advertises what validation enforces on presence: each property absent, and null, gets one verdict from both', async () => {
        const schema = new DtoSchemaFactory().forClass(dto);
        // Formats are the validator's business here (the schema factory's spec compares them); presence is the point.
        const advertised = new Ajv2020({ strict: false, allowUnionTypes: true, validateFormats: false }).compile(schema);
        const declared = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
        const samples = declared.flatMap((name) => {
          const { [name]: _left, ...absent } = valid;
          return [copyOf(absent), copyOf({ ...valid, [name]: null })];
        });
        const verdicts = await Promise.all(
          samples.map(async (raw) => ({
            raw,
            schema: advertised(raw),
            validation: (await validateArguments(dto, copyOf(raw), planned)).valid,
          })),
        );
        expect(verdicts.filter((verdict) => verdict.schema !== verdict.validation)).toEqual([]);
      });

      it('gives the same answer as class-transformer + class-validator: instance, fields and messages', async () => {
        await fc.assert(
          fc.asyncProperty(argumentsFor(dto, valid), async (raw) => {
            const expected = outcomeOf(await validateArguments(dto, copyOf(raw), reference));
            expect(outcomeOf(await validateArguments(dto, copyOf(raw), planned))).toEqual(expected);
          }),
          { numRuns },
        );
      });
    },
  );
}
