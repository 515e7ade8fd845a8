// The JSON Schema types live in core/ (execution validates against them too); features/transforms/ still reads them
// here until its next change points at core/json-schema.types.
export type { JsonSchema, JsonSchemaTypeName, JsonValue } from '../../../core/json-schema.types.js';
