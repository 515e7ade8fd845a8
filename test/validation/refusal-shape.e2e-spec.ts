import 'reflect-metadata';
import { Body, Controller, Injectable, Module, Post, ValidationPipe } from '@nestjs/common';
import { McpModule, McpRoute, McpTool } from '@nest-mcp/core';
import { IsInt, Max, Validate, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import { listen, type RunningApp } from '../kit/apps.js';
import { callTool, envelopeOf, post, rpc } from '../kit/http.js';
import { freePort } from '../kit/redis-server.harness.js';

/**
 * One refusal for bad arguments, whatever declared them: a DTO, a Zod schema, a hand-written JSON Schema, a
 * controller route (its ValidationPipe's 400) and an OpenAPI operation each answer the same VALIDATION_ERROR
 * envelope: `fields` the argument paths, the message `Invalid arguments: <path>: <reason>`.
 */

class DaysDto {
  @IsInt()
  @Max(7)
  days: number;
}

@Injectable()
class DaysTools {
  @McpTool({ name: 'dto_days', description: 'Days (DTO)' })
  dto(args: DaysDto) {
    return args;
  }

  @McpTool({ name: 'zod_days', description: 'Days (Zod)', input: z.object({ days: z.number().int().max(7) }) })
  zod(args: { days: number }) {
    return args;
  }

  @McpTool({
    name: 'schema_days',
    description: 'Days (JSON Schema)',
    inputSchema: { type: 'object', properties: { days: { type: 'integer', maximum: 7 } }, required: ['days'], additionalProperties: false },
  })
  schema(args: { days: number }) {
    return args;
  }

  @McpTool({ name: 'zod_loose', description: 'Days and any more (Zod, loose)', input: z.looseObject({ days: z.number().int() }) })
  loose(args: Record<string, unknown>) {
    return args;
  }

  @McpTool({ name: 'valibot_days', description: 'Days (Valibot)', input: v.object({ days: v.pipe(v.number(), v.maxValue(7)) }) })
  valibot(args: { days: number }) {
    return args;
  }

  @McpTool({ name: 'valibot_loose', description: 'Days and any more (Valibot, loose)', input: v.looseObject({ days: v.number() }) })
  valibotLoose(args: Record<string, unknown>) {
    return args;
  }

  @McpTool({ name: 'arktype_days', description: 'Days and any more (ArkType)', input: type({ days: 'number' }) })
  arktype(args: Record<string, unknown>) {
    return args;
  }
}

/** A rule no JSON Schema shows: the route's own ValidationPipe refuses, after the schema check let the call through. */
@ValidatorConstraint({ name: 'atMostAWeek' })
class AtMostAWeek implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return typeof value === 'number' && value <= 7;
  }
  defaultMessage() {
    return 'days must be at most a week';
  }
}

class RouteDaysDto {
  @IsInt()
  @Validate(AtMostAWeek)
  days: number;
}

@Controller('forecasts')
class ForecastsController {
  @McpRoute({ name: 'route_days', description: 'Days (a controller route)' })
  @Post()
  create(@Body(new ValidationPipe()) body: RouteDaysDto) {
    return body;
  }
}
@Module({ controllers: [ForecastsController] })
class ForecastsModule {}

const OPENAPI = {
  openapi: '3.1.0',
  info: { title: 'forecasts', version: '1' },
  paths: {
    '/forecasts': {
      post: {
        operationId: 'openapi_days',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', properties: { days: { type: 'integer', maximum: 7 } } } } },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
  },
};

let app: RunningApp;
beforeAll(async () => {
  const closedPort = await freePort();
  app = await listen([
    ForecastsModule,
    {
      module: class RefusalShapeModule {},
      imports: [
        McpModule.forRoot({
          name: 'refusals',
          version: '1.0.0',
          sources: { routes: [ForecastsModule], openapi: [{ document: OPENAPI, baseUrl: `http://127.0.0.1:${closedPort}` }] },
        }),
      ],
      providers: [DaysTools],
    },
  ]);
});
afterAll(() => app?.close());

it.each(['dto_days', 'zod_days', 'schema_days', 'route_days', 'openapi_days'])('%s refuses { days: 9 } in the one shape', async (name) => {
  const answer = await post(app.url, callTool(1, name, { days: 9 }));
  expect(answer.status).toBe(200);
  const envelope = envelopeOf(answer);
  expect(envelope).toEqual({
    status: 'error',
    error: {
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/^Invalid arguments: days: \S.*$/),
      fields: ['days'],
      retryable: false,
    },
  });
});

it.each(['dto_days', 'zod_days', 'valibot_days', 'schema_days', 'route_days'])(
  '%s refuses an unknown argument in the one shape',
  async (name) => {
    const envelope = envelopeOf(await post(app.url, callTool(1, name, { days: 3, weeks: 1 })));
    expect(envelope.error).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'Invalid arguments: weeks: property weeks should not exist',
      fields: ['weeks'],
      retryable: false,
    });
  },
);

it('the route refusal is its ValidationPipe’s message under the path it names', async () => {
  const envelope = envelopeOf(await post(app.url, callTool(1, 'route_days', { days: 9 })));
  expect(envelope.error.message).toBe('Invalid arguments: days: days must be at most a week');
});

it('a Zod object is advertised closed and without the safe-integer bounds; a loose one stays open', async () => {
  const { tools } = (await post(app.url, rpc(1, 'tools/list'))).json.result as { tools: { name: string; inputSchema: unknown }[] };
  const schemaOf = (name: string) => tools.find((tool) => tool.name === name)?.inputSchema;
  expect(schemaOf('zod_days')).toEqual({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { days: { type: 'integer', maximum: 7 } },
    required: ['days'],
    additionalProperties: false,
  });
  expect(schemaOf('zod_loose')).toMatchObject({ properties: { days: { type: 'integer' } }, additionalProperties: {} });
  expect(JSON.stringify(schemaOf('zod_loose'))).not.toContain('9007199254740991');
  expect(envelopeOf(await post(app.url, callTool(2, 'zod_loose', { days: 3, weeks: 1 })))).toEqual({
    status: 'success',
    data: { days: 3, weeks: 1 },
  });
});

it.each(['valibot_loose', 'arktype_days'])('%s, whose object passes other keys on, takes them', async (name) => {
  expect(envelopeOf(await post(app.url, callTool(3, name, { days: 3, weeks: 1 })))).toEqual({
    status: 'success',
    data: { days: 3, weeks: 1 },
  });
});
