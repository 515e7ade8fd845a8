import { acceptedAsSent, type ArgumentValidation, type McpArgumentValidator } from './argument-validator.interface.js';
import { refusal, unknownProperty } from './refusal.js';

/**
 * The validator of a tool without arguments (no DTO, no schema): its advertised schema forbids properties, and the
 * server agrees with it.
 */
export const NO_ARGUMENTS_VALIDATOR: McpArgumentValidator = {
  validate(raw: Record<string, unknown>): ArgumentValidation {
    const fields = Object.keys(raw);
    return fields.length === 0 ? acceptedAsSent(raw) : refusal(fields.map(unknownProperty));
  },
  revive: acceptedAsSent,
};

/** Accepts any arguments as sent: a foreign schema this server cannot check (the tool's own server checks them). */
export const ANY_ARGUMENTS_VALIDATOR: McpArgumentValidator = { validate: acceptedAsSent, revive: acceptedAsSent };
