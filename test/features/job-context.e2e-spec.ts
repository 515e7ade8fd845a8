import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { Type } from 'class-transformer';
import { IsDate, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { z } from 'zod';
import { McpArgs, McpContext, McpModule, McpProperty, McpTool, type McpToolContext } from '@nest-mcp/core';
import { McpTestClient } from '@nest-mcp/core/testing';
import { eventually } from '../kit/eventually.js';

class CountArgs {
  @McpProperty({ description: 'What to count' })
  @IsString()
  word: string;

  @McpProperty({ description: 'How many times' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(5)
  times: number = 2;
}

class MeetingArgs {
  @McpProperty({ description: 'When' })
  @Type(() => Date)
  @IsDate()
  at: Date;
}

/** Parsed by Zod: a default, and a transform whose value exists only as `~standard.validate` returns it. */
const forecastInput = z.object({ city: z.string().transform((city) => city.toUpperCase()), days: z.number().int().default(3) });

@Injectable()
class JobTools {
  @McpTool({ description: 'Says which weekday a meeting falls on, as a job', job: true })
  weekday(@McpArgs() args: MeetingArgs) {
    return { date: args.at instanceof Date, day: args.at.getUTCDay() };
  }

  @McpTool({ description: 'Forecasts, as a job whose arguments are a Zod schema', job: true, input: forecastInput })
  forecast(@McpArgs() args: { city: string; days: number }) {
    return args;
  }

  @McpTool({ description: 'Says where it runs, as a job', job: true })
  whereAmI(@McpContext() context: McpToolContext) {
    return { transport: context.transport, tenant: context.tenant, protocolVersion: context.protocolVersion };
  }

  @McpTool({ description: 'Counts a word, as a job', job: true })
  count(@McpArgs() args: CountArgs) {
    return { instance: args instanceof CountArgs, words: Array.from({ length: args.times }, () => args.word) };
  }
}

describe("a job's context and arguments", () => {
  let moduleRef: TestingModule;
  let client: McpTestClient;

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'jobs', version: '1.0.0' })],
      providers: [JobTools],
    })
      .setLogger({ log() {}, error() {}, warn() {}, debug() {}, verbose() {}, fatal() {} })
      .compile();
    client = await McpTestClient.create(moduleRef, { principal: { subject: 'alice', tenant: 'acme', scopes: [] } });
  });
  afterAll(async () => {
    await client.close();
    await moduleRef.close();
  });

  /** Starts `tool` as a job and polls `get_job_status` until it ends. */
  const outcome = async (tool: string, args: Record<string, unknown> = {}) => {
    const started = await client.callTool<{ job_id: string }>(tool, args);
    expect(started.envelope).toMatchObject({ status: 'pending' });
    const jobId = (started.envelope as { data: { job_id: string } }).data.job_id;
    let status: Record<string, unknown> = {};
    await eventually(async () => {
      status = (await client.callTool('get_job_status', { job_id: jobId })).envelope as unknown as Record<string, unknown>;
      return status.status !== 'pending';
    });
    return status;
  };

  it('the handler sees the transport the job was started on (the in-memory test connection), as a call would', async () => {
    expect(await outcome('where_am_i')).toEqual({
      status: 'success',
      data: { transport: 'memory', tenant: 'acme', protocolVersion: expect.any(String) },
    });
  });

  it('arguments validated when the call was accepted reach the handler as a DTO instance, with its defaults', async () => {
    expect(await outcome('count', { word: 'hi' })).toEqual({ status: 'success', data: { instance: true, words: ['hi', 'hi'] } });
  });

  it("the worker revives the DTO as validation built it: a Date from the JSON string the job's record keeps", async () => {
    expect(await outcome('weekday', { at: '2026-12-06T09:00:00.000Z' })).toEqual({ status: 'success', data: { date: true, day: 0 } });
  });

  it("the worker hands a Standard Schema tool the schema's parsed value (transform and default), not the raw arguments", async () => {
    expect(await outcome('forecast', { city: 'oslo' })).toEqual({ status: 'success', data: { city: 'OSLO', days: 3 } });
  });

  it('invalid arguments are refused when the call is accepted: no job is started', async () => {
    const refused = await client.callTool('count', { word: 'hi', times: 9 });
    expect(refused.envelope).toMatchObject({ status: 'error', error: { code: 'VALIDATION_ERROR', fields: ['times'] } });
  });
});
