import { registerDecorator, type ValidationArguments } from 'class-validator';
import { findCity } from '../city-lookup.js';

/**
 * The property names a city of the sample's list (English or Chinese name). A job tool's arguments are validated
 * when the call is accepted, before the job is queued, so an unknown city is a `VALIDATION_ERROR` at once rather
 * than a job that fails later.
 */
export function IsKnownCity(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isKnownCity',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => typeof value === 'string' && findCity(value) !== undefined,
        defaultMessage: (args?: ValidationArguments) =>
          `Unknown city "${String(args?.value)}". Try an English or Chinese city name such as "Beijing" or "北京".`,
      },
    });
}
