import { bootWarnings } from '../../../core/errors/boot-warnings.js';

/** Boot warnings about tool DTOs (codes in `docs/errors.md`, boot warnings). */
export const McpDtoSchemaWarnings = bootWarnings({
  withoutRules: {
    code: 'MCP_WARN_DTO_WITHOUT_RULES',
    message: (site: string, tool: string, dto: string, properties: readonly string[]) =>
      `${site}: the tool "${tool}" takes ${dto}, which has no class-validator decorators` +
      (properties.length > 0 ? ` (properties without a rule: ${properties.join(', ')})` : '') +
      ': its inputSchema has no properties and class-validator refuses every call. Give each property a rule ' +
      '(@IsString(), @IsInt(), @IsOptional(), …); @McpProperty() and @ApiProperty() only describe a property.',
    shown: { site: '<Class>#<method>', tool: 'name', dto: 'Dto', properties: [] },
    fix: 'Give each property a class-validator rule (`@IsString()`, `@IsInt()`, `@IsOptional()`, …); until then every call answers a `VALIDATION_ERROR`.',
  },
});
