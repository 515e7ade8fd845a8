// In-process pipeline CPU per tools/call: McpTestClient (no socket) against a one-tool app of the tree this file sits
// in (ab-in-process.mjs copies it there). Prints one JSON line: { variant, samples: [µs of CPU per call, ...] }.
// Decorators are applied by hand so that the file runs as it is against any build, older ones included.
// usage: node in-process.mjs [one|dto8] [samples] [callsPerSample]
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpArgs, McpModule, McpTool } from '@nest-mcp/core';
import { McpTestClient } from '@nest-mcp/core/testing';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

const [variant = 'one', samplesArg = '15', callsArg = '2000'] = process.argv.slice(2);
const prop = (proto, name, type, decorators) => {
  Reflect.defineMetadata('design:type', type, proto, name);
  for (const d of [...decorators].reverse()) d(proto, name);
};
class EchoDto {}
prop(EchoDto.prototype, 'text', String, [IsString(), Length(1, 200)]);
if (variant === 'dto8') {
  prop(EchoDto.prototype, 'a', String, [IsString()]);
  prop(EchoDto.prototype, 'b', Number, [IsInt(), Min(0), Max(100)]);
  prop(EchoDto.prototype, 'c', String, [IsIn(['x', 'y', 'z'])]);
  prop(EchoDto.prototype, 'd', Boolean, [IsBoolean()]);
  prop(EchoDto.prototype, 'e', String, [IsOptional(), IsString()]);
  prop(EchoDto.prototype, 'f', Number, [IsInt()]);
  prop(EchoDto.prototype, 'g', String, [IsString(), Length(1, 10)]);
}
class EchoTools {
  echo(args) {
    return args.text;
  }
}
Reflect.defineMetadata('design:paramtypes', [EchoDto], EchoTools.prototype, 'echo');
Reflect.defineMetadata('design:returntype', String, EchoTools.prototype, 'echo');
McpArgs()(EchoTools.prototype, 'echo', 0);
McpTool({ description: 'Returns the text it is given.' })(
  EchoTools.prototype,
  'echo',
  Object.getOwnPropertyDescriptor(EchoTools.prototype, 'echo'),
);
Injectable()(EchoTools);
class AppModule {}
Module({ imports: [McpModule.forRoot({ name: 'ab', version: '1.0.0' })], providers: [EchoTools] })(AppModule);

const args = variant === 'dto8' ? { text: 'hello', a: 'a', b: 5, c: 'y', d: true, e: 'e', f: 3, g: 'gg' } : { text: 'hello' };
const app = await NestFactory.create(AppModule, { logger: false });
await app.init();
const client = await McpTestClient.create(app);
const first = await client.callTool('echo', args);
if (JSON.stringify(first).indexOf('hello') < 0) throw new Error(`unexpected answer ${JSON.stringify(first)}`);
const calls = Number(callsArg);
for (let i = 0; i < calls * 6; i++) await client.callTool('echo', args); // warm-up
const samples = [];
for (let s = 0; s < Number(samplesArg); s++) {
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) await client.callTool('echo', args);
  const used = process.cpuUsage(start);
  samples.push((used.user + used.system) / calls);
}
await client.close();
await app.close();
process.stdout.write(`${JSON.stringify({ variant, samples })}\n`);
