import 'reflect-metadata';
import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';

interface ToolsCallBody {
  id?: string | number | null;
  params?: { arguments?: { text?: unknown } };
}

/** The ceiling on Nest + express (or Fastify): parse the JSON-RPC body (Nest's default parser), answer a hand-built result. */
@Controller('mcp')
class BareController {
  @Post()
  @HttpCode(200)
  call(@Body() body: ToolsCallBody) {
    return {
      jsonrpc: '2.0',
      id: body.id ?? null,
      result: { content: [{ type: 'text', text: String(body.params?.arguments?.text ?? '') }] },
    };
  }
}

@Module({ controllers: [BareController] })
class AppModule {}

/** On Fastify, Nest's default parser is Fastify's own JSON content-type parser. */
export async function start(adapter: 'express' | 'fastify') {
  return adapter === 'fastify'
    ? NestFactory.create(AppModule, new FastifyAdapter(), { logger: false })
    : NestFactory.create(AppModule, { logger: false });
}
