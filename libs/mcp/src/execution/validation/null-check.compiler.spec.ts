import type { JsonSchema } from '../../core/json-schema.types.js';
import { compileNullCheck } from './null-check.compiler.js';

function objectOf(properties: JsonSchema, extra: JsonSchema = {}): JsonSchema {
  return { type: 'object', properties, additionalProperties: false, ...extra };
}

describe('compileNullCheck', () => {
  it.each<[string, JsonSchema, 'refused' | 'declared' | 'open']>([
    ['a type without null', { type: 'string' }, 'refused'],
    ['a type list with null', { type: ['string', 'null'] }, 'declared'],
    ['an enum without null', { enum: ['a', 'b'] }, 'refused'],
    ['an enum with null', { type: ['string', 'null'], enum: ['a', null] }, 'declared'],
    ['a const', { const: 'a' }, 'refused'],
    ['const null', { const: null }, 'declared'],
    ['no type (e.g. an unknown property)', { description: 'anything' }, 'open'],
    ['keywords that only constrain other types', { minLength: 1, minimum: 2, items: { type: 'string' } }, 'open'],
    ['not of a const', { not: { const: 3 } }, 'open'],
    ['not of a schema accepting null', { not: { type: 'null' } }, 'refused'],
    ['allOf with one refusing branch', { allOf: [{ minLength: 1 }, { type: 'string' }] }, 'refused'],
    ['anyOf of a $ref and null', { anyOf: [{ $ref: '#/$defs/Node' }, { type: 'null' }] }, 'declared'],
    ['a $ref to an object', { $ref: '#/$defs/Node' }, 'refused'],
    ['oneOf with exactly one branch accepting null', { oneOf: [{ type: 'string' }, { type: 'null' }] }, 'declared'],
    ['a type list with null next to an enum without it', { type: ['string', 'null'], enum: ['a'] }, 'refused'],
  ])('%s: null is %s', (_label, property, expected) => {
    const check = compileNullCheck({ ...objectOf({ value: property }), $defs: { Node: objectOf({}) } });
    const findings = check({ value: null });
    const verdict = findings.refused.includes('value') ? 'refused' : findings.declared.includes('value') ? 'declared' : 'open';
    expect(verdict).toBe(expected);
  });

  it('looks only at properties the caller sent', () => {
    const check = compileNullCheck(objectOf({ a: { type: 'string' }, b: { type: 'integer' } }));
    expect(check({})).toEqual({ refused: [], declared: [] });
    expect(check({ a: 'x' })).toEqual({ refused: [], declared: [] });
    expect(check({ a: null, b: null })).toEqual({ refused: ['a', 'b'], declared: [] });
  });

  it('leaves undeclared properties to the whitelist check', () => {
    expect(compileNullCheck(objectOf({ a: { type: 'string' } }))({ extra: null })).toEqual({ refused: [], declared: [] });
  });

  it('names nested properties and array items with the dotted paths class-validator uses', () => {
    const address = objectOf({ city: { type: 'string' }, zip: { type: ['string', 'null'] } });
    const check = compileNullCheck(
      objectOf({ address, stops: { type: 'array', items: address }, tags: { type: 'array', items: { type: 'string' } } }),
    );
    expect(check({ address: { city: null, zip: null }, stops: [{ city: 'a' }, null, { city: null }], tags: ['a', null] })).toEqual({
      refused: ['address.city', 'stops.1', 'stops.2.city', 'tags.1'],
      declared: ['address.zip'],
    });
  });

  it('follows recursive $defs references to any depth', () => {
    const node = objectOf({
      name: { type: 'string' },
      children: { type: 'array', items: { $ref: '#/$defs/Node' } },
      next: { anyOf: [{ $ref: '#/$defs/Node' }, { type: 'null' }] },
    });
    const check = compileNullCheck({ ...node, $defs: { Node: node } });
    expect(check({ children: [{ children: [{ name: null, next: null }] }], next: { next: { name: null } } })).toEqual({
      refused: ['children.0.children.0.name', 'next.next.name'],
      declared: ['children.0.children.0.next'],
    });
  });

  it('ignores values of the wrong type (the other rules reject them)', () => {
    const check = compileNullCheck(
      objectOf({ address: objectOf({ city: { type: 'string' } }), list: { type: 'array', items: { type: 'string' } } }),
    );
    expect(check({ address: [null], list: { 0: null } })).toEqual({ refused: [], declared: [] });
    expect(check('not an object')).toEqual({ refused: [], declared: [] });
  });
});
