import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsInt, IsString, Validate, ValidateNested, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { ConsoleLogger, Logger, type LoggerService } from '@nestjs/common';
import { validateArguments } from './dto-validation.js';
import { argumentValidationMode, canValidateSync } from './validation-mode.js';
import { DtoSchemaFactory } from '../../features/tools/schema/dto-schema.factory.js';

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

describe('argumentValidationMode', () => {
  const verboseLines: string[] = [];
  const capture: LoggerService = {
    log: () => undefined,
    error: () => undefined,
    warn: () => undefined,
    debug: () => undefined,
    verbose: (message: unknown, context?: unknown) => void verboseLines.push(`[${String(context)}] ${String(message)}`),
  };
  beforeEach(() => {
    verboseLines.length = 0;
    Logger.overrideLogger(capture);
  });
  afterEach(() => Logger.overrideLogger(new ConsoleLogger()));

  const modeOf = (dto: new () => object, site?: string) => argumentValidationMode(dto, new DtoSchemaFactory().forClass(dto), site);

  it('compiles a plan for a DTO of built-in rules, and says so in one verbose line for the tool', () => {
    expect(modeOf(PlainDto, 'Tools#plain').plan).toEqual(expect.any(Function));
    expect(verboseLines).toEqual(['[McpModule] Tools#plain: arguments validated by the plan compiled from PlainDto']);
  });

  it('keeps the reference path for a custom validator, and names the reason', async () => {
    const mode = modeOf(AsyncRuleDto, 'Tools#slow');
    expect(mode.plan).toBeUndefined();
    expect(verboseLines).toEqual([
      "[McpModule] Tools#slow: arguments validated by class-transformer + class-validator (AsyncRuleDto.name: custom validator 'SlowlyKnown')",
    ]);
    expect(await validateArguments(AsyncRuleDto, { name: 'unknown' }, mode)).toMatchObject({ valid: false, fields: ['name'] });
  });

  it('logs nothing without a site (prompt arguments)', () => {
    modeOf(NestedDto);
    expect(verboseLines).toEqual([]);
  });
});
