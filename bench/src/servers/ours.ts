import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { McpArgs, McpModule, McpTool } from '@nest-mcp/core';
import { Echo8Dto, Echo8Schema, EchoDto } from './dtos.js';

/** `echo` with the one-field DTO (`ours-stateless`, `ours-session`, and the memory measurements). */
@Injectable()
class EchoTools {
  @McpTool({ description: 'Returns the text it is given.' })
  echo(@McpArgs() args: EchoDto): string {
    return args.text;
  }
}

/** `echo` whose DTO has 8 validated fields, all sent on every call (`ours-dto8`). */
@Injectable()
class Echo8Tools {
  @McpTool({ description: 'Returns the text it is given; the other seven fields are validated and ignored.' })
  echo(@McpArgs() args: Echo8Dto): string {
    return args.text;
  }
}

/** `echo` whose eight fields are a Zod schema instead of a DTO (`ours-zod8`). */
@Injectable()
class EchoZod8Tools {
  @McpTool({ description: 'Returns the text it is given; the other seven fields are validated and ignored.', input: Echo8Schema })
  echo(@McpArgs() args: { text: string }): string {
    return args.text;
  }
}

/**
 * Our library as an application would use it (as the weather server does): `bodyParser: false`, default options,
 * on platform-express or on platform-fastify.
 * `large-limits` raises the per-tenant caps on sessions and streams (the memory measurements open 1 000 of each,
 * all as the anonymous default tenant).
 */
export async function start(variant: string, largeLimits: boolean, adapter: 'express' | 'fastify' = 'express') {
  const tools = variant === 'dto8' ? Echo8Tools : variant === 'zod8' ? EchoZod8Tools : EchoTools;
  const limits = largeLimits ? { maxSessionsPerTenant: 100_000, maxStreamsPerTenant: 100_000 } : undefined;

  @Module({ imports: [McpModule.forRoot({ name: 'bench-ours', version: '1.0.0', ...(limits && { limits }) })], providers: [tools] })
  class AppModule {}

  const options = { bodyParser: false, logger: false } as const;
  return adapter === 'fastify' ? NestFactory.create(AppModule, new FastifyAdapter(), options) : NestFactory.create(AppModule, options);
}
