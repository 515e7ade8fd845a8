import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpArgs, McpModule, McpProperty, McpTool, McpToolRegistry } from '@nest-mcp/core';
import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { collectGarbage } from './ipc.js';

/**
 * A large catalog as a company would build one: `--tools N` tools spread over up to 100 providers, each tool with its
 * own 7-field DTO class (strings with lengths, an enum, an int range, an optional string array, an optional nested
 * object of its own class). The `catalog` stack of server.ts serves it on `/mcp` and reports the boot's figures;
 * `--search` adds tool search (`toolSearch: { mode: 'beside' }`).
 */

/** Applies property decorators as `tsc` would (last listed first) and records `design:type` like emitDecoratorMetadata. */
function property(target: object, name: string, type: unknown, decorators: PropertyDecorator[]): void {
  Reflect.defineMetadata('design:type', type, target, name);
  for (const decorator of [...decorators].reverse()) decorator(target, name);
}

const REGIONS = ['eu', 'us', 'apac', 'latam'];
const TOPICS = ['invoice', 'customer', 'order', 'shipment', 'ticket', 'contract', 'payment', 'refund', 'product', 'report'];
const VERBS = ['find', 'create', 'update', 'archive', 'export', 'approve', 'cancel', 'summarize', 'assign', 'audit'];

function makeDto(index: number): new () => object {
  const topic = TOPICS[index % TOPICS.length];
  const Address = { [`Tool${index}Filter`]: class {} }[`Tool${index}Filter`];
  property(Address.prototype, 'region', String, [McpProperty({ description: 'Region to restrict to' }), IsIn(REGIONS)]);
  property(Address.prototype, 'since', String, [McpProperty({ description: 'ISO date to start from' }), IsOptional(), IsString()]);
  const Dto = { [`Tool${index}Dto`]: class {} }[`Tool${index}Dto`];
  const prototype = Dto.prototype as object;
  property(prototype, 'query', String, [McpProperty({ description: `Which ${topic} to work on` }), IsString(), Length(1, 200)]);
  property(prototype, 'owner', String, [McpProperty({ description: 'Account that owns it' }), IsString(), Length(3, 64)]);
  property(prototype, 'status', String, [McpProperty({ description: `State of the ${topic}` }), IsIn(['open', 'closed', 'pending'])]);
  property(prototype, 'limit', Number, [McpProperty({ description: 'Most results' }), IsOptional(), IsInt(), Min(1), Max(500)]);
  property(prototype, 'tags', Array, [McpProperty({ description: 'Labels to match' }), IsOptional(), IsArray(), IsString({ each: true })]);
  property(prototype, 'note', String, [
    McpProperty({ description: 'Free text for the audit log' }),
    IsOptional(),
    IsString(),
    Length(0, 500),
  ]);
  property(prototype, 'filter', Address, [
    McpProperty({ description: 'Narrows the search' }),
    IsOptional(),
    ValidateNested(),
    Type(() => Address),
  ]);
  return Dto;
}

/** One provider with the tools `from` .. `to - 1`, each `@McpTool()` taking `@McpArgs()` of its own DTO. */
function makeProvider(provider: number, from: number, to: number): new () => object {
  const Tools = { [`Catalog${provider}Tools`]: class {} }[`Catalog${provider}Tools`];
  const prototype = Tools.prototype as Record<string, unknown>;
  for (let index = from; index < to; index++) {
    const method = `tool${index}`;
    const Dto = makeDto(index);
    Object.defineProperty(prototype, method, {
      value: (args: { query: string }) => args.query,
      writable: true,
      configurable: true,
      enumerable: false,
    });
    Reflect.defineMetadata('design:type', Function, prototype, method);
    Reflect.defineMetadata('design:paramtypes', [Dto], prototype, method);
    Reflect.defineMetadata('design:returntype', String, prototype, method);
    McpArgs()(prototype, method, 0);
    const verb = VERBS[Math.floor(index / TOPICS.length) % VERBS.length];
    const topic = TOPICS[index % TOPICS.length];
    McpTool({
      name: `${verb}_${topic}_${index}`,
      title: `${verb} ${topic} #${index}`,
      description: `${verb[0].toUpperCase()}${verb.slice(1)}s a ${topic} of department ${provider}: returns the query it was given.`,
    })(prototype, method, Object.getOwnPropertyDescriptor(prototype, method)!);
  }
  Injectable()(Tools);
  return Tools;
}

/**
 * Boots the catalog app of `count` tools (not yet listening) and measures it: the time of `NestFactory.create()` +
 * `app.init()` (discovery, schemas, validators, descriptors) and the heap after full collections, split into what
 * declaring the classes holds (the application's own classes and class-validator metadata) and what the booted
 * module holds on top.
 */
export async function start(count: number, search = false) {
  collectGarbage();
  const heapStart = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const providerCount = Math.min(100, count);
  const providers: (new () => object)[] = [];
  for (let p = 0; p < providerCount; p++) {
    providers.push(makeProvider(p, Math.floor((p * count) / providerCount), Math.floor(((p + 1) * count) / providerCount)));
  }
  const toolSearch = search ? { tools: { search: { mode: 'beside' as const } } } : {};
  @Module({ imports: [McpModule.forRoot({ name: 'bench-catalog', version: '1.0.0', ...toolSearch })], providers })
  class AppModule {}
  const t1 = performance.now();
  collectGarbage();
  const heapDeclared = process.memoryUsage().heapUsed;
  const t2 = performance.now();
  const cpu = process.cpuUsage();
  const app = await NestFactory.create(AppModule, { bodyParser: false, logger: false });
  await app.init();
  const t3 = performance.now();
  const cpuSpent = process.cpuUsage(cpu);
  const registered = app.get(McpToolRegistry).size;
  if (registered !== count + (search ? 1 : 0)) throw new Error(`expected ${count} tools, the registry has ${registered}`);
  collectGarbage();
  const heapBooted = process.memoryUsage().heapUsed;
  const info = {
    tools: count,
    declareMs: t1 - t0,
    bootMs: t3 - t2,
    // All threads (the garbage collector's helpers too): less sensitive than wall time to other load on the machine.
    bootCpuMs: (cpuSpent.user + cpuSpent.system) / 1000,
    declaredHeap: heapDeclared - heapStart,
    bootedHeap: heapBooted - heapDeclared,
  };
  return { app, info };
}
