import 'reflect-metadata';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Injectable } from '@nestjs/common';
import { McpArgs, McpModule, McpTool, McpToolRegistry, type McpConfigurationError } from '@nest-mcp/core';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import { bootError } from '../kit/boot-mcp.js';
import { initApp, type RunningApp } from '../kit/apps.js';
import { listenWithSdkClient, type AppWithSdkClient } from '../kit/sdk-client.js';

const trip = z.object({
  traveller: z.object({ name: z.string().min(1), email: z.email() }),
  stops: z.array(z.object({ city: z.string().min(2), nights: z.number().int().min(1).max(30) })).min(1),
  currency: z.enum(['EUR', 'USD']).default('EUR'),
});
const quote = z.object({ total: z.number(), currency: z.string(), stops: z.number().int() });

class RateDto {
  @IsString()
  city: string;

  @IsInt()
  @Min(1)
  @Max(30)
  nights: number;
}

/** One app, four ways to declare arguments: Zod, Valibot, ArkType and a class-validator DTO. */
@Injectable()
class TravelTools {
  @McpTool({ description: 'Quotes a trip (Zod)', input: trip, output: quote })
  quoteTrip(@McpArgs() args: z.infer<typeof trip>) {
    const nights = args.stops.reduce((sum, stop) => sum + stop.nights, 0);
    return { total: nights * 100, currency: args.currency, stops: args.stops.length, internalNote: 'never sent' };
  }

  @McpTool({
    description: 'Tags a booking (Valibot)',
    input: v.object({
      booking: v.pipe(v.string(), v.regex(/^B\d{4}$/)),
      tags: v.optional(v.array(v.pipe(v.string(), v.maxLength(10))), []),
    }),
  })
  tagBooking(args: { booking: string; tags: string[] }) {
    return { booking: args.booking, tags: args.tags };
  }

  @McpTool({ description: 'Converts an amount (ArkType)', input: type({ amount: 'number > 0', rate: 'number > 0' }) })
  convert(args: { amount: number; rate: number }) {
    return Math.round(args.amount * args.rate * 100) / 100;
  }

  @McpTool({ description: 'Nightly rate of a city (DTO)' })
  nightlyRate(args: RateDto) {
    return { city: args.city, total: args.nights * 100 };
  }

  @McpTool({ description: 'Quotes wrongly: its data breaks its own output schema', input: z.object({}), output: quote })
  brokenQuote() {
    return { total: 'a lot', currency: 'EUR', stops: 1 };
  }
}

describe('Standard Schema tools beside DTO tools (official SDK client)', () => {
  let app: RunningApp;
  let client: Client;
  let connected: AppWithSdkClient | undefined;

  beforeAll(async () => {
    connected = await listenWithSdkClient({ name: 'travel', version: '1.0.0', lists: { listChanged: { tools: true } } }, [TravelTools]);
    ({ app, client } = connected);
  });

  afterAll(() => connected?.close());

  it('lists the JSON Schema each validator converts to, beside the DTO tool', async () => {
    const tools = Object.fromEntries((await client.listTools()).tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(tools)).toEqual(['quote_trip', 'tag_booking', 'convert', 'nightly_rate', 'broken_quote']);
    expect(tools.quote_trip.inputSchema).toMatchObject({
      type: 'object',
      properties: {
        traveller: { type: 'object', properties: { email: { type: 'string', format: 'email' } } },
        stops: { type: 'array', minItems: 1, items: { properties: { nights: { type: 'integer', maximum: 30 } } } },
        currency: { enum: ['EUR', 'USD'], default: 'EUR' },
      },
      required: ['traveller', 'stops'],
    });
    expect(tools.quote_trip.outputSchema).toMatchObject({
      type: 'object',
      properties: { data: { properties: { total: { type: 'number' } } } },
    });
    expect(tools.tag_booking.inputSchema).toMatchObject({
      properties: { booking: { type: 'string', pattern: '^B\\d{4}$' } },
      required: ['booking'],
    });
    expect(tools.convert.inputSchema).toMatchObject({ properties: { amount: { type: 'number', exclusiveMinimum: 0 } } });
    expect(tools.nightly_rate.inputSchema).toMatchObject({ properties: { nights: { type: 'integer', minimum: 1, maximum: 30 } } });
  });

  it('calls each tool with valid arguments; the method gets the parsed value (defaults applied), the data is what the output schema parses', async () => {
    const quoted = await client.callTool({
      name: 'quote_trip',
      arguments: {
        traveller: { name: 'Ada', email: 'ada@example.com' },
        stops: [
          { city: 'Oslo', nights: 2 },
          { city: 'Rome', nights: 3 },
        ],
      },
    });
    // The SDK checked structuredContent against the listed outputSchema before returning it.
    expect(quoted.structuredContent).toEqual({ status: 'success', data: { total: 500, currency: 'EUR', stops: 2 } });
    const tagged = await client.callTool({ name: 'tag_booking', arguments: { booking: 'B1234' } });
    expect(tagged.structuredContent).toEqual({ status: 'success', data: { booking: 'B1234', tags: [] } });
    expect((await client.callTool({ name: 'convert', arguments: { amount: 10, rate: 1.5 } })).structuredContent).toEqual({
      status: 'success',
      data: 15,
    });
    expect((await client.callTool({ name: 'nightly_rate', arguments: { city: 'Oslo', nights: 2 } })).structuredContent).toEqual({
      status: 'success',
      data: { city: 'Oslo', total: 200 },
    });
  });

  it('refuses invalid arguments with VALIDATION_ERROR and the dotted paths of the issues, as for DTOs', async () => {
    const refused = await client.callTool({
      name: 'quote_trip',
      arguments: {
        traveller: { name: 'Ada', email: 'not-an-email' },
        stops: [
          { city: 'Oslo', nights: 2 },
          { city: 'R', nights: 40 },
        ],
      },
    });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({
      status: 'error',
      error: { code: 'VALIDATION_ERROR', retryable: false, fields: ['traveller.email', 'stops.1.city', 'stops.1.nights'] },
    });
    const valibot = await client.callTool({ name: 'tag_booking', arguments: { booking: 'X1', tags: ['ok', 'far too long a tag'] } });
    expect((valibot.structuredContent as any).error).toMatchObject({ code: 'VALIDATION_ERROR', fields: ['booking', 'tags.1'] });
    const ark = await client.callTool({ name: 'convert', arguments: { amount: -1, rate: 2 } });
    expect((ark.structuredContent as any).error).toMatchObject({ code: 'VALIDATION_ERROR', fields: ['amount'] });
    const dto = await client.callTool({ name: 'nightly_rate', arguments: { city: 'Oslo', nights: 40 } });
    expect((dto.structuredContent as any).error).toMatchObject({ code: 'VALIDATION_ERROR', fields: ['nights'] });
  });

  it('never sends data its output schema refuses: INTERNAL_ERROR instead (valid against the outputSchema)', async () => {
    const result = await client.callTool({ name: 'broken_quote', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ status: 'error', error: { code: 'INTERNAL_ERROR' } });
    expect(JSON.stringify(result)).not.toContain('a lot');
  });

  it('registers a Standard Schema tool at runtime and validates it the same way', async () => {
    const handle = app.app.get(McpToolRegistry).register({
      name: 'runtime_convert',
      description: 'Converts (registered at runtime)',
      args: z.object({ amount: z.number().positive() }),
      handler: (args) => args.amount * 2,
    });
    await client.listTools();
    expect((await client.callTool({ name: 'runtime_convert', arguments: { amount: 2 } })).structuredContent).toEqual({
      status: 'success',
      data: 4,
    });
    const refused = await client.callTool({ name: 'runtime_convert', arguments: { amount: -2 } });
    expect((refused.structuredContent as any).error).toMatchObject({ code: 'VALIDATION_ERROR', fields: ['amount'] });
    handle.remove();
  });
});

describe('Standard Schema boot errors', () => {
  it('refuses an input schema that does not describe an object, naming the tool', async () => {
    @Injectable()
    class NotAnObject {
      @McpTool({ description: 'Takes a bare string', input: z.string() })
      bare(args: string) {
        return args;
      }
    }
    class BootModule {}
    const error = (await bootError(() =>
      initApp([{ module: BootModule, imports: [McpModule.forRoot({ name: 'bad', version: '1.0.0' })], providers: [NotAnObject] }]),
    )) as McpConfigurationError;
    expect(error.code).toBe('MCP_ERR_SCHEMA_NOT_OBJECT');
    expect(error.message).toContain('NotAnObject#bare');
  });
});
