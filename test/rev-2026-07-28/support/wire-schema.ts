import Ajv2020 from 'ajv/dist/2020.js';
import { createRequire } from 'node:module';

/**
 * The 2026-07-28 JSON Schema (`schema/2026-07-28/schema.json` of modelcontextprotocol/modelcontextprotocol at
 * b0f60ba, as embedded in @modelcontextprotocol/conformance 0.2.0-alpha.12): every message the server sends in
 * the 2026-07-28 era must validate against it, as the conformance suite's `wire-schema-valid` check requires.
 */
const schema = createRequire(import.meta.url)('./schema-2026-07-28.json') as {
  $defs: Record<string, { properties?: Record<string, { const?: unknown }> }>;
};
const ID = 'mcp://2026-07-28/schema.json';
const ajv = new (Ajv2020 as unknown as typeof Ajv2020.default)({ strict: false, allErrors: true });
ajv.addFormat('uri', true).addFormat('byte', true).addFormat('date-time', true).addFormat('uri-template', true).addFormat('email', true);
ajv.addSchema({ ...schema, $id: ID });

/** Schema definition of each request method's result, and of each notification. */
const byMethod = new Map<string, string>();
const resultOf = new Map<string, string>();
for (const [name, def] of Object.entries(schema.$defs)) {
  const method = def.properties?.method?.const;
  if (typeof method !== 'string') continue;
  byMethod.set(method, name);
  if (name.endsWith('Request') && `${name.slice(0, -7)}Result` in schema.$defs) resultOf.set(method, `${name.slice(0, -7)}Result`);
}
const errorDefs: Record<number, string> = {
  [-32020]: 'HeaderMismatchError',
  [-32021]: 'MissingRequiredClientCapabilityError',
  [-32022]: 'UnsupportedProtocolVersionError',
};

function check(definition: string, value: unknown): string[] {
  const validate = ajv.getSchema(`${ID}#/$defs/${definition}`)!;
  return validate(value) ? [] : (validate.errors ?? []).map((error) => `${definition}${error.instancePath}: ${error.message}`);
}

/**
 * The schema violations of one message the server sent (empty when valid). `requestMethod` names the request
 * a response answers, so its result is checked against that method's result type.
 */
export function wireViolations(message: any, requestMethod?: string): string[] {
  if (typeof message?.method === 'string')
    return check(byMethod.get(message.method) ?? ('id' in message ? 'JSONRPCRequest' : 'JSONRPCNotification'), message);
  if (message?.error) return check(errorDefs[message.error.code] ?? 'JSONRPCErrorResponse', message);
  const resultType = message?.result?.resultType;
  const definition =
    resultType === 'input_required'
      ? 'InputRequiredResult'
      : resultType === 'task'
        ? undefined
        : requestMethod && resultOf.get(requestMethod);
  return [...(definition ? check(definition, message.result) : []), ...check('JSONRPCResultResponse', message)];
}

/** Jest helper: fails with the violations. */
export function expectWireValid(messages: readonly any[], requestMethod?: string): void {
  const violations = messages.flatMap((message) =>
    wireViolations(message, 'id' in (message ?? {}) && !('method' in message) ? requestMethod : undefined),
  );
  expect(violations).toEqual([]);
}
