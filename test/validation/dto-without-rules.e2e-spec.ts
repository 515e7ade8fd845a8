import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { McpArgs, McpProperty, McpTool } from '../../libs/mcp/src/index.js';
import { listenMcp, type RunningApp } from '../kit/apps.js';
import { callTool, post } from '../kit/http.js';
import { RecordingLogger } from '../kit/recording-logger.js';

/**
 * A DTO with `@McpProperty()` and no class-validator decorator (issue 41 item 3): its schema has no properties and
 * class-validator refuses every call with "an unknown value was passed", `fields: ["undefined"]`. The boot warns,
 * naming the tool and the DTO, and the call's VALIDATION_ERROR says what is wrong.
 */
class GreetDto {
  @McpProperty({ description: 'Who to greet' })
  name: string;
}

@Injectable()
class GreetTools {
  @McpTool({ description: 'Greets someone by name' })
  greet(@McpArgs() args: GreetDto) {
    return { greeting: `Hello, ${args.name}!` };
  }
}

describe('a tool whose DTO has no class-validator decorators', () => {
  let server: RunningApp;
  const logger = new RecordingLogger();
  beforeAll(async () => {
    server = await listenMcp({ name: 'hello', version: '1.0.0' }, [GreetTools], { logger });
  });
  afterAll(() => server.close());

  it('is named at boot with a warning code, its tool and its DTO', () => {
    const warning = logger.warnings.find((line) => line.startsWith('MCP_WARN_DTO_WITHOUT_RULES: '));
    expect(warning).toContain(
      'GreetTools#greet: the tool "greet" takes GreetDto, which has no class-validator decorators (properties without a rule: name)',
    );
  });

  it('answers a call with a VALIDATION_ERROR that names the cause and the arguments sent', async () => {
    const { json } = await post(server.url, callTool(1, 'greet', { name: 'Ada' }));
    expect(json.result.isError).toBe(true);
    expect(json.result.structuredContent.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('the DTO GreetDto has no class-validator decorators, so every property is unknown (name)'),
      fields: ['name'],
    });
  });
});
