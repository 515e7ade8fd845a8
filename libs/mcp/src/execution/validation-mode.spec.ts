import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsInt, IsString, Validate, ValidateNested, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { validateArguments } from './argument-validator.js';
import { canValidateSync } from './validation-mode.js';

@ValidatorConstraint({ name: 'slowlyKnown', async: true })
class SlowlyKnown implements ValidatorConstraintInterface {
  async validate(value: unknown): Promise<boolean> {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return value === 'known';
  }
}

class PlainDto {
  @IsString() name: string;
  @IsInt() count: number;
}

class AsyncRuleDto {
  @Validate(SlowlyKnown) name: string;
}

class NestedDto {
  @ValidateNested()
  @Type(() => PlainDto)
  inner: PlainDto;
}

describe('canValidateSync', () => {
  it('is true for DTOs with only synchronous rules', () => {
    expect(canValidateSync(PlainDto)).toBe(true);
  });

  it('is false with an async custom constraint, whose rule validateSync would skip', async () => {
    expect(canValidateSync(AsyncRuleDto)).toBe(false);
    // The async path really enforces the rule that the sync one would miss.
    expect(await validateArguments(AsyncRuleDto, { name: 'unknown' }, { sync: false })).toMatchObject({ valid: false, fields: ['name'] });
    expect(await validateArguments(AsyncRuleDto, { name: 'unknown' }, { sync: true })).toMatchObject({ valid: true });
  });

  it('is false with nested DTOs (their rules are only known per value)', () => {
    expect(canValidateSync(NestedDto)).toBe(false);
  });

  it('gives the same verdicts on both paths for synchronous DTOs', async () => {
    for (const raw of [
      { name: 'a', count: 1 },
      { name: 1, count: 1 },
      { name: 'a', count: 1.5 },
      { name: 'a', count: 1, extra: true },
    ]) {
      expect(await validateArguments(PlainDto, raw, { sync: true })).toEqual(await validateArguments(PlainDto, raw, { sync: false }));
    }
  });
});
