import * as classValidator from 'class-validator';
import { findValidatorKeywordRule, VALIDATOR_KEYWORDS, type KeywordContext } from './validator-keywords.js';

const context = (types?: KeywordContext['types']): KeywordContext => ({ types, location: 'Dto.property', debug: () => undefined });

describe('VALIDATOR_KEYWORDS', () => {
  it('is keyed by names class-validator really records', () => {
    // class-validator exports each decorator's metadata name as an upper-case constant (IS_STRING = 'isString').
    const recordedNames = new Set(
      Object.entries(classValidator)
        .filter(([key, value]) => /^[A-Z][A-Z0-9_]+$/.test(key) && typeof value === 'string')
        .map(([, value]) => value),
    );
    expect(Object.keys(VALIDATOR_KEYWORDS).filter((name) => !recordedNames.has(name))).toEqual([]);
  });

  it('finds own entries only', () => {
    expect(findValidatorKeywordRule('isEmail')).toBe(VALIDATOR_KEYWORDS.isEmail);
    expect(findValidatorKeywordRule('toString')).toBeUndefined();
    expect(findValidatorKeywordRule('isPhoneNumber')).toBeUndefined();
    expect(findValidatorKeywordRule(undefined)).toBeUndefined();
  });

  it('computes keywords from constraints', () => {
    expect(VALIDATOR_KEYWORDS.isLength.keywords?.([2, undefined], context())).toEqual({ minLength: 2 });
    expect(VALIDATOR_KEYWORDS.isIp.keywords?.([6], context())).toEqual({ format: 'ipv6' });
    expect(VALIDATOR_KEYWORDS.isIp.keywords?.([undefined], context())).toBeUndefined();
    expect(VALIDATOR_KEYWORDS.isDivisibleBy.keywords?.([3], context())).toEqual({ multipleOf: 3 });
    expect(VALIDATOR_KEYWORDS.isDivisibleBy.keywords?.([0.5], context())).toBeUndefined();
    expect(VALIDATOR_KEYWORDS.isNotEmpty.keywords?.([], context(['integer']))).toBeUndefined();
    expect(VALIDATOR_KEYWORDS.isNotEmpty.keywords?.([], context())).toEqual({ minLength: 1 });
  });

  it('types enum values, folding integer into number and ignoring values JSON cannot carry', () => {
    const type = VALIDATOR_KEYWORDS.isIn.type as (constraints: readonly unknown[]) => readonly string[] | undefined;
    expect(type([[1, 2.5]])).toEqual(['number']);
    expect(type([['a', 1, null, {}]])).toEqual(['string', 'integer', 'null']);
    expect(VALIDATOR_KEYWORDS.isIn.keywords?.([['a', {}, () => 1]], context())).toEqual({ enum: ['a'] });
  });
});
