import 'reflect-metadata';
import {
  Catch,
  ForbiddenException,
  Inject,
  Injectable,
  Scope,
  UseFilters,
  UseGuards,
  type CanActivate,
  type ExceptionFilter,
  type INestApplication,
} from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { McpTool } from '../index.js';
import { bootMcp, closeMcpApps, dispatch } from '../../../../test/kit/boot-mcp.js';

/** One per call's DI context: the guard marks it, the method reads the mark. */
@Injectable({ scope: Scope.REQUEST })
class CallScratch {
  static made = 0;
  readonly id = ++CallScratch.made;
  admitted = false;
}

/** Request-scoped through its dependency: Nest resolves it in the call's DI context. */
@Injectable()
class MarkingGuard implements CanActivate {
  constructor(private readonly scratch: CallScratch) {}
  canActivate(): boolean {
    this.scratch.admitted = true;
    return true;
  }
}

@Injectable({ scope: Scope.REQUEST })
class ScopedTools {
  constructor(
    readonly scratch: CallScratch,
    @Inject(REQUEST) readonly request: unknown,
  ) {}

  @McpTool({ name: 'scoped', description: 'Reads what its guard marked.' })
  @UseGuards(MarkingGuard)
  scoped() {
    return { admitted: this.scratch.admitted, scratch: this.scratch.id };
  }
}

@Catch(ForbiddenException)
class SoftRefusal implements ExceptionFilter {
  catch() {
    return { refused: 'softly' };
  }
}

@Injectable()
class DenyGuard implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}

@Injectable()
class FilteredTools {
  @McpTool({ name: 'filtered', description: 'Its filter answers its guard refusal.' })
  @UseGuards(DenyGuard)
  @UseFilters(SoftRefusal)
  filtered() {
    return 'never';
  }
}

const envelopeOf = async (app: INestApplication, name: string) =>
  ((await dispatch(app, 'tools/call', { name, arguments: {} })) as unknown as { result: { structuredContent: unknown } }).result
    .structuredContent;

/** The two stages `createTool` splits a tool into (guards, then interceptors and method) behave as one handler did. */
describe('McpToolHandlerFactory.createTool', () => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await bootMcp([ScopedTools, CallScratch, MarkingGuard, FilteredTools, DenyGuard]);
  });
  afterAll(() => closeMcpApps());

  it("a request-scoped tool's guards and method share the call's instance; the next call gets new ones", async () => {
    expect(await envelopeOf(app, 'scoped')).toEqual({ status: 'success', data: { admitted: true, scratch: expect.any(Number) } });
    const first = ((await envelopeOf(app, 'scoped')) as { data: { scratch: number } }).data.scratch;
    const second = ((await envelopeOf(app, 'scoped')) as { data: { scratch: number } }).data.scratch;
    expect(second).not.toBe(first);
  });

  it("a tool's exception filter still sees its guard's refusal, and its answer is the call's result", async () => {
    expect(await envelopeOf(app, 'filtered')).toEqual({ status: 'success', data: { refused: 'softly' } });
  });
});
