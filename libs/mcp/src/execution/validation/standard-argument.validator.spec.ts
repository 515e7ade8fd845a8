import { z } from 'zod';
import { McpStandardArgumentValidator } from './standard-argument.validator.js';

const input = z.object({ city: z.string().min(2), days: z.number().int().default(3) });

describe('McpStandardArgumentValidator', () => {
  it('answers the parsed value (defaults applied) or the refusal in the shape a DTO refusal has', async () => {
    const validator = new McpStandardArgumentValidator(input);
    expect(await validator.validate({ city: 'Oslo' })).toEqual({ valid: true, value: { city: 'Oslo', days: 3 } });
    expect(await validator.validate({ city: 'X' })).toMatchObject({ valid: false, fields: ['city'] });
  });

  it('with the declared keys of a closed schema, refuses another key before the schema could drop it', async () => {
    const validator = new McpStandardArgumentValidator(input, new Set(['city', 'days']));
    expect(await validator.validate({ city: 'Oslo', dayz: 2 })).toEqual({
      valid: false,
      fields: ['dayz'],
      message: 'Invalid arguments: dayz: property dayz should not exist',
    });
    // Without them (an open schema), Zod drops the key and the call goes on.
    expect(await new McpStandardArgumentValidator(input).validate({ city: 'Oslo', dayz: 2 })).toEqual({
      valid: true,
      value: { city: 'Oslo', days: 3 },
    });
  });

  it("revives a job's arguments by parsing them again: the parsed value exists only as validate() returns it", async () => {
    const validator = new McpStandardArgumentValidator(input);
    expect(await validator.revive({ city: 'Oslo' })).toEqual({ valid: true, value: { city: 'Oslo', days: 3 } });
  });
});
