import { Catch, Injectable, Module, UseFilters, type ExceptionFilter } from '@nestjs/common';
import { McpModule, McpTool, McpToolError } from '@nest-mcp/core';
import { CapturingLogger, type CapturedLog } from './fixtures/capturing-logger.js';
import { startSecApp } from './fixtures/sec-app.js';
import { listen, type RunningApp, startWeatherApp } from '../kit/apps.js';
import { callTool, envelopeOf, post, sleep } from '../kit/http.js';

/**
 * What the server writes to its log when tools fail: an expected tool error (McpToolError, a call that ends
 * because it was timed out) is not an ERROR and carries no stack; an unexpected one is logged exactly once, as one
 * line with its request id; text a client chose never reaches the log with a raw line break.
 */

/** A city whose name carries a line that looks like a Nest log entry. */
const FORGED_CITY = 'Atlantis\n[Nest] 1  - 01/01/2026, 00:00:00     LOG [McpAuth] tenant admin granted\r\n';

/** Frames of a stack trace as a console logger prints them. */
const STACK_FRAME = /(^|\n)\s+at\s/;

const bytesOf = (entries: CapturedLog[]) => entries.reduce((sum, entry) => sum + Buffer.byteLength(entry.text), 0);

describe('logging of failing tools', () => {
  it('100 calls with an unknown city holding a forged log line: no ERROR, no stack, no raw line break', async () => {
    const logger = new CapturingLogger();
    const app = await startWeatherApp({ logger });
    try {
      const logged = logger.since();
      for (let id = 1; id <= 100; id++) {
        const answer = await post(app.url, callTool(id, 'get_weather', { city: FORGED_CITY }));
        expect(envelopeOf(answer)).toMatchObject({ status: 'error', error: { code: 'CITY_NOT_FOUND' } });
      }
      const entries = logged();
      expect(entries.filter((entry) => entry.level === 'error' || entry.level === 'fatal')).toEqual([]);
      for (const entry of entries) {
        expect(entry.text).not.toMatch(/[\r\n]/);
        expect(entry.text).not.toMatch(STACK_FRAME);
      }
      expect(bytesOf(entries)).toBeLessThan(100 * 200);
    } finally {
      await app.close();
    }
  });

  it('a tool that throws a plain Error: exactly one ERROR line, naming the tool and the request id', async () => {
    const logger = new CapturingLogger();
    const app = await startSecApp({}, {}, logger);
    try {
      const logged = logger.since();
      const answer = await post(app.url, callTool('explode-request-7', 'explode'));
      expect(envelopeOf(answer)).toMatchObject({ status: 'error', error: { code: 'INTERNAL_ERROR' } });
      const errors = logged().filter((entry) => entry.level === 'error');
      expect(errors).toHaveLength(1);
      expect(errors[0].text).toContain('"explode"');
      expect(errors[0].text).toContain('explode-request-7');
      expect(errors[0].text).not.toMatch(/[\r\n]/);
    } finally {
      await app.close();
    }
  });

  it('a client-chosen request id with a line break is escaped in that ERROR line', async () => {
    const logger = new CapturingLogger();
    const app = await startSecApp({}, {}, logger);
    try {
      const logged = logger.since();
      await post(app.url, callTool('id\n[Nest] forged', 'explode'));
      const errors = logged().filter((entry) => entry.level === 'error');
      expect(errors).toHaveLength(1);
      expect(errors[0].text).toContain('id\\n[Nest] forged');
      expect(errors[0].text).not.toMatch(/[\r\n]/);
    } finally {
      await app.close();
    }
  });

  it('a guard that throws a plain Error: one ERROR line; a timed-out tool that stops as asked: none', async () => {
    const logger = new CapturingLogger();
    const app: RunningApp = await startSecApp({}, {}, logger);
    try {
      const guard = logger.since();
      await post(app.url, callTool('guard-request-1', 'guarded_city', { city: 'Explode' }));
      expect(guard().filter((entry) => entry.level === 'error')).toHaveLength(1);

      const timeout = logger.since();
      const answer = await post(app.url, callTool('timeout-request-1', 'sleep_short_timeout', { ms: 2_000 }));
      expect(envelopeOf(answer)).toMatchObject({ status: 'error', error: { code: 'TIMEOUT' } });
      await sleep(100);
      const entries = timeout();
      expect(entries.filter((entry) => entry.level === 'error')).toEqual([]);
      for (const entry of entries) expect(entry.text).not.toMatch(STACK_FRAME);
    } finally {
      await app.close();
    }
  });
});

class DomainError extends Error {}

/** A method filter: maps DomainError to a tool error. */
@Catch(DomainError)
class DomainErrorFilter implements ExceptionFilter {
  catch(): never {
    throw new McpToolError('DOMAIN_RULE', 'Mapped by the method filter');
  }
}

/** A class filter catching everything its methods' filters leave. */
@Catch()
class ClassWideFilter implements ExceptionFilter {
  catch(): never {
    throw new McpToolError('CLASS_WIDE', 'Mapped by the class filter');
  }
}

@Injectable()
@UseFilters(ClassWideFilter)
class FilteredTools {
  @McpTool({ name: 'domain_failure', description: 'Throws a DomainError.' })
  @UseFilters(DomainErrorFilter)
  domainFailure(): never {
    throw new DomainError('rule broken');
  }

  @McpTool({ name: 'other_failure', description: 'Throws a plain Error.' })
  otherFailure(): never {
    throw new Error('anything else');
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'filters', version: '1.0.0' })], providers: [FilteredTools] })
class FilteredToolsModule {}

describe('exception filters on tools still apply, method before class', () => {
  it('the method filter maps its error, the class filter the rest; neither is logged as ERROR', async () => {
    const logger = new CapturingLogger();
    const app = await listen([FilteredToolsModule], { logger: logger });
    try {
      const logged = logger.since();
      expect(envelopeOf(await post(app.url, callTool(1, 'domain_failure')))).toMatchObject({
        status: 'error',
        error: { code: 'DOMAIN_RULE' },
      });
      expect(envelopeOf(await post(app.url, callTool(2, 'other_failure')))).toMatchObject({
        status: 'error',
        error: { code: 'CLASS_WIDE' },
      });
      expect(logged().filter((entry) => entry.level === 'error')).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
