import { ANY_ARGUMENTS_VALIDATOR, NO_ARGUMENTS_VALIDATOR } from './fixed-argument.validators.js';

describe('the fixed validators', () => {
  it('NO_ARGUMENTS_VALIDATOR accepts {} and refuses every property, as a DTO refuses an unknown one', () => {
    expect(NO_ARGUMENTS_VALIDATOR.validate({})).toEqual({ valid: true, value: {} });
    expect(NO_ARGUMENTS_VALIDATOR.validate({ city: 'Oslo', days: 2 })).toEqual({
      valid: false,
      fields: ['city', 'days'],
      message: 'Invalid arguments: city: property city should not exist, days: property days should not exist',
    });
  });

  it('ANY_ARGUMENTS_VALIDATOR passes the arguments on as sent, and revives them as they are', () => {
    const args = { q: 'x', nested: { deep: [1] } };
    expect(ANY_ARGUMENTS_VALIDATOR.validate(args)).toEqual({ valid: true, value: args });
    expect(ANY_ARGUMENTS_VALIDATOR.revive(args)).toEqual({ valid: true, value: args });
  });
});
