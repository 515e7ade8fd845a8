import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpArgs, McpModule, McpProperty, McpTool, McpToolRegistry } from '@nest-mcp/core';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { arg } from './ipc.js';

type Decorator = PropertyDecorator;

/** Applies property decorators as `tsc` would (last listed first) and records `design:type` like emitDecoratorMetadata. */
function property(target: object, name: string, type: unknown, decorators: Decorator[]): void {
  Reflect.defineMetadata('design:type', type, target, name);
  for (const decorator of [...decorators].reverse()) decorator(target, name);
}

/** A distinct DTO class per tool, with three validated fields (a required string, two optionals). */
function makeDto(index: number): new () => object {
  const Dto = { [`Tool${index}Dto`]: class {} }[`Tool${index}Dto`];
  const prototype = Dto.prototype as object;
  property(prototype, 'query', String, [McpProperty({ description: `Query of tool ${index}` }), IsString(), Length(1, 200)]);
  property(prototype, 'limit', Number, [McpProperty({ description: 'Most results' }), IsOptional(), IsInt(), Min(1), Max(100)]);
  property(prototype, 'mode', String, [McpProperty({ description: 'Search mode' }), IsOptional(), IsIn(['fast', 'full'])]);
  return Dto;
}

/** One provider with `count` `@McpTool()` methods, each taking `@McpArgs()` of its own DTO, built as decorators would. */
function makeToolsProvider(count: number): new () => object {
  class ManyTools {}
  const prototype = ManyTools.prototype as Record<string, unknown>;
  for (let index = 0; index < count; index++) {
    const method = `tool${index}`;
    const Dto = makeDto(index);
    Object.defineProperty(prototype, method, {
      value: function (this: unknown, args: { query: string }) {
        return args.query;
      },
      writable: true,
      configurable: true,
      enumerable: false,
    });
    Reflect.defineMetadata('design:type', Function, prototype, method);
    Reflect.defineMetadata('design:paramtypes', [Dto], prototype, method);
    Reflect.defineMetadata('design:returntype', String, prototype, method);
    McpArgs()(prototype, method, 0);
    McpTool({ name: `tool_${index}`, description: `Tool number ${index}: searches something.` })(
      prototype,
      method,
      Object.getOwnPropertyDescriptor(prototype, method)!,
    );
  }
  Injectable()(ManyTools);
  return ManyTools;
}

/**
 * Boot time of an app with `--tools N` generated tools: `NestFactory.create()` and `app.init()` (where tools are
 * discovered, their schemas generated and handlers bound) timed separately, reported to the runner over IPC.
 */
async function main(): Promise<void> {
  const count = Number(arg('tools'));
  const t0 = performance.now();
  const Tools = makeToolsProvider(count);
  @Module({ imports: [McpModule.forRoot({ name: 'bench-boot', version: '1.0.0' })], providers: [Tools] })
  class AppModule {}
  const t1 = performance.now();
  const app = await NestFactory.create(AppModule, { bodyParser: false, logger: false });
  const t2 = performance.now();
  await app.init();
  const t3 = performance.now();
  const registered = app.get(McpToolRegistry).size;
  if (registered !== count) throw new Error(`expected ${count} tools, the registry has ${registered}`);
  const result = { type: 'boot', tools: count, defineMs: t1 - t0, createMs: t2 - t1, initMs: t3 - t2 };
  await app.close();
  if (process.send) process.send(result, () => process.exit(0));
  else {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`boot failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
