import 'reflect-metadata';
import {
  Injectable,
  UseGuards,
  UseInterceptors,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
  type NestInterceptor,
} from '@nestjs/common';
import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import { tap, type Observable } from 'rxjs';
import { McpArgs, McpExecutionContext, McpTool } from '../index.js';
import { bootMcp, closeMcpApps, dispatch, HTTP_CONTEXT } from '../../../../test/kit/boot-mcp.js';
import { McpCallPipeline } from './mcp-call.pipeline.js';
import { McpTenantLimiter } from './tenant-limiter.js';
import { McpToolCallRunner } from './tool-call.runner.js';
import { McpIdempotency } from './idempotency.service.js';
import { McpJobService } from '../jobs/mcp-job.service.js';

/** The stages a call passed, in the order it passed them, with what guards and interceptors saw as arguments. */
let stages: string[] = [];

class OrderArgs {
  @IsInt()
  @Min(1)
  amount: number;

  @IsOptional()
  @IsString()
  request_key?: string;
}

/** Admits everyone but `amount: 13`; notes whether it saw the raw arguments or the validated DTO. */
@Injectable()
class RecordingGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const args = McpExecutionContext.from(context).args as { amount?: unknown };
    stages.push(args instanceof OrderArgs ? 'guards(dto)' : 'guards(raw)');
    return args.amount !== 13;
  }
}

@Injectable()
class RecordingInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    stages.push(McpExecutionContext.from(context).args instanceof OrderArgs ? 'interceptors(dto)' : 'interceptors(raw)');
    return next.handle().pipe(tap(() => stages.push('interceptors:after')));
  }
}

@Injectable()
class OrderTools {
  @McpTool({ name: 'ordered', description: 'Records its stages.', scopes: ['order:write'], idempotencyKey: 'request_key' })
  @UseGuards(RecordingGuard)
  @UseInterceptors(RecordingInterceptor)
  ordered(@McpArgs() args: OrderArgs) {
    stages.push('method');
    return { amount: args.amount };
  }

  @McpTool({ name: 'ordered_job', description: 'Records its stages as a job.', scopes: ['order:write'], job: true })
  @UseGuards(RecordingGuard)
  @UseInterceptors(RecordingInterceptor)
  orderedJob(@McpArgs() args: OrderArgs) {
    stages.push('method');
    return { amount: args.amount };
  }
}

/** Wraps `object[method]` so every call first records `stage`. */
function record<T extends object>(object: T, method: keyof T & string, stage: string): void {
  const original = (object[method] as (...args: unknown[]) => unknown).bind(object);
  Object.assign(object, {
    [method]: (...args: unknown[]) => {
      stages.push(stage);
      return original(...args);
    },
  });
}

async function until(check: () => boolean): Promise<void> {
  for (let waited = 0; !check() && waited < 5_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
}

/**
 * Pins the order of `McpCallPipeline` with the real stages, spied on: scopes, guards (raw arguments), limits,
 * validation, idempotency, interceptors (validated arguments), the method; a guard's refusal stops the call before
 * the limits; a job's guards run at call time, before it is accepted, and not again on the worker.
 */
describe('McpCallPipeline order', () => {
  let app: INestApplication;
  const context = { ...HTTP_CONTEXT, principal: { subject: 'ann', tenant: 'acme', scopes: ['order:write'], claims: {} } };
  /** The envelope of a `tools/call` from a caller holding the tools' scope. */
  const call = async (name: string, args: Record<string, unknown>) =>
    ((await dispatch(app, 'tools/call', { name, arguments: args }, { context })) as unknown as { result: { structuredContent: unknown } })
      .result.structuredContent;

  beforeAll(async () => {
    app = await bootMcp([OrderTools, RecordingGuard, RecordingInterceptor]);
    record(app.get(McpCallPipeline), 'admit', 'scopes');
    record(app.get(McpTenantLimiter), 'acquire', 'limits');
    record(app.get(McpToolCallRunner), 'validate', 'validation');
    record(app.get(McpIdempotency), 'run', 'idempotency');
    record(app.get(McpJobService), 'start', 'job accepted');
  });
  afterAll(() => closeMcpApps());
  beforeEach(() => {
    stages = [];
  });

  it('runs scopes, guards, limits, validation, idempotency, interceptors and the method, in this order', async () => {
    expect(await call('ordered', { amount: 2, request_key: 'order-spec-key-0001' })).toEqual({ status: 'success', data: { amount: 2 } });
    expect(stages).toEqual([
      'scopes',
      'guards(raw)',
      'limits',
      'validation',
      'idempotency',
      'interceptors(dto)',
      'method',
      'interceptors:after',
    ]);
  });

  it('a refusal of the guards ends the call there: no limits, no validation, no idempotency key', async () => {
    expect(await call('ordered', { amount: 13, request_key: 'order-spec-key-0002' })).toMatchObject({
      status: 'error',
      error: { code: 'FORBIDDEN' },
    });
    expect(stages).toEqual(['scopes', 'guards(raw)']);
  });

  it('a job tool: guards at call time, before the job is accepted; the worker runs the method without them', async () => {
    expect(await call('ordered_job', { amount: 3 })).toMatchObject({ status: 'pending' });
    await until(() => stages.includes('interceptors:after'));
    expect(stages).toEqual([
      'scopes',
      'guards(raw)',
      'limits',
      'validation',
      'job accepted',
      // validated once, at acceptance: the worker rebuilds the DTO without checking it again
      'interceptors(dto)',
      'method',
      'interceptors:after',
    ]);
  });

  it('a job tool refused by its guards is never accepted', async () => {
    expect(await call('ordered_job', { amount: 13 })).toMatchObject({ status: 'error', error: { code: 'FORBIDDEN' } });
    expect(stages).toEqual(['scopes', 'guards(raw)']);
  });
});
