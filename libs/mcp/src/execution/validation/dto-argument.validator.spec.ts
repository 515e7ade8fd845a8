import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsDate, IsInt, IsString } from 'class-validator';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { DtoSchemaFactory } from '../../features/tools/schema/dto-schema.factory.js';
import { McpDtoArgumentValidator } from './dto-argument.validator.js';

class MeetingDto {
  @IsString() title: string;
  @IsInt() minutes: number;
  @Type(() => Date)
  @IsDate()
  at: Date;
}

/** Built-in rules only: the plan reproduces it (a `@Type()` conversion sends MeetingDto to class-validator). */
class SlotDto {
  @IsString() title: string;
  @IsInt() minutes: number;
}

const schemas = new DtoSchemaFactory();
const schema = schemas.forClass(MeetingDto);
const sent = { title: 'Standup', minutes: 15, at: '2026-12-06T09:00:00.000Z' };

describe('McpDtoArgumentValidator', () => {
  let verbose: ReturnType<typeof jest.spyOn>;
  beforeEach(() => {
    verbose = jest.spyOn(Logger.prototype, 'verbose').mockImplementation(() => undefined);
  });
  afterEach(() => verbose.mockRestore());

  it('compiles its plan on the first call, not at boot, and once for every later call', () => {
    const validator = new McpDtoArgumentValidator(SlotDto, schemas.forClass(SlotDto), 'Calendar#book');
    expect(verbose).not.toHaveBeenCalled();
    for (let call = 0; call < 3; call++) expect(validator.validate({ title: 'Standup', minutes: 15 })).toMatchObject({ valid: true });
    expect(verbose.mock.calls).toEqual([['Calendar#book: arguments validated by the plan compiled from SlotDto']]);
  });

  it('answers synchronously with the DTO instance, or the refusal naming the failing path', () => {
    const validator = new McpDtoArgumentValidator(MeetingDto, schema);
    const accepted = validator.validate({ ...sent });
    expect(accepted).not.toBeInstanceOf(Promise);
    if (accepted instanceof Promise || !accepted.valid) throw new Error('expected a synchronous acceptance');
    expect(accepted.value).toBeInstanceOf(MeetingDto);
    expect((accepted.value as MeetingDto).at).toEqual(new Date(sent.at));
    expect(validator.validate({ ...sent, minutes: 'long' })).toMatchObject({ valid: false, fields: ['minutes'] });
  });

  it("revives a job's JSON arguments as the instance validation built, classes and Dates included", () => {
    const validator = new McpDtoArgumentValidator(MeetingDto, schema);
    const revived = validator.revive(JSON.parse(JSON.stringify(sent)));
    expect(revived.valid).toBe(true);
    if (!revived.valid) return;
    expect(revived.value).toBeInstanceOf(MeetingDto);
    expect((revived.value as MeetingDto).at).toBeInstanceOf(Date);
  });

  it('without an advertised schema (a prompt, the job tools) validates with class-validator on every call', async () => {
    const validator = new McpDtoArgumentValidator(MeetingDto);
    const answer = validator.validate({ ...sent, title: 3 });
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toMatchObject({ valid: false, fields: ['title'] });
    expect(verbose).not.toHaveBeenCalled();
  });
});
