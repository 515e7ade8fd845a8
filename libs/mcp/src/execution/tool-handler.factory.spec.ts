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
import { APP_GUARD, REQUEST } from '@nestjs/core';
import { McpTool, McpToolRegistry } from '../index.js';
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

@Injectable()
class PlainTools {
  @McpTool({ name: 'plain', description: 'No guard of its own.' })
  plain() {
    return 'ran';
  }
}

/** Counts the calls it sees; refuses when told to. */
@Injectable()
class CountingGuard implements CanActivate {
  static seen = 0;
  static refuse = false;
  canActivate(): boolean {
    CountingGuard.seen++;
    return !CountingGuard.refuse;
  }
}

const guardsOf = (app: INestApplication, name: string) =>
  (app.get(McpToolRegistry) as unknown as { get(name: string): { guards?: { none?: () => boolean } } | undefined }).get(name)?.guards;

/** A tool without any guard skips the guard stage; a guard from any of Nest's sources still runs. */
describe('McpToolHandlerFactory.createTool: the guard stage only where a guard applies', () => {
  afterAll(() => closeMcpApps());
  beforeEach(() => {
    CountingGuard.seen = 0;
    CountingGuard.refuse = false;
  });

  it('no guard on the class, the method or globally: none() is true and the call runs', async () => {
    const app = await bootMcp([PlainTools, ScopedTools, CallScratch, MarkingGuard]);
    expect(await envelopeOf(app, 'plain')).toEqual({ status: 'success', data: 'ran' });
    expect(guardsOf(app, 'plain')?.none?.()).toBe(true);
    expect(guardsOf(app, 'scoped')?.none?.()).toBe(false);
  });

  it('a global guard added after init (useGlobalGuards) runs, and refuses', async () => {
    const app = await bootMcp([PlainTools]);
    app.useGlobalGuards(new CountingGuard());
    expect(await envelopeOf(app, 'plain')).toEqual({ status: 'success', data: 'ran' });
    expect(CountingGuard.seen).toBe(1);
    CountingGuard.refuse = true;
    expect(await envelopeOf(app, 'plain')).toMatchObject({ status: 'error', error: { code: 'FORBIDDEN' } });
  });

  it('an APP_GUARD runs, and refuses', async () => {
    const app = await bootMcp([PlainTools, { provide: APP_GUARD, useClass: CountingGuard }]);
    CountingGuard.refuse = true;
    expect(await envelopeOf(app, 'plain')).toMatchObject({ status: 'error', error: { code: 'FORBIDDEN' } });
    expect(CountingGuard.seen).toBe(1);
  });
});
