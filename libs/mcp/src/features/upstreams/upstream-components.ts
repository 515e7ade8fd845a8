import { ForbiddenException } from '@nestjs/common';
import type { McpRemotePrompt, McpRemoteResource, McpRemoteResourceTemplate, McpRemoteTool } from '../../client/mcp-client.types.js';
import type { JsonSchema } from '../../core/json-schema.types.js';
import { McpResult } from '../../core/results/mcp-result.js';
import type { McpHandlerContext } from '../mcp-handler-context.interface.js';
import type { McpResourceContext } from '../resources/mcp-resource-context.interface.js';
import type { McpPromptRegistration } from '../prompts/mcp-prompt-registration.interface.js';
import type { McpFixedResourceRegistration, McpResourceTemplateRegistration } from '../resources/mcp-resource-registration.interface.js';
import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';
import type { RawSchemaCompiler } from '../tools/schema/raw-schema.compiler.js';
import { acceptedAsSent, type McpArgumentValidator } from '../../execution/validation/argument-validator.interface.js';
import { ANY_ARGUMENTS_VALIDATOR } from '../../execution/validation/fixed-argument.validators.js';
import type { McpUpstream } from './mcp-upstream.js';
import { originalUri, upstreamToolName, upstreamUri } from './upstream-names.js';

/** One call of the upstream's for our caller; a failure is thrown as {@link McpUpstream.failure} words it. */
async function relay<T>(upstream: McpUpstream, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw upstream.failure(error);
  }
}

/**
 * Checks arguments against the upstream tool's `inputSchema` here, as a local tool's hand-written schema is: bad
 * arguments answer `VALIDATION_ERROR` and never reach the upstream. Compiled on the first call (a list may hold
 * hundreds of tools, relisted often); a schema ajv cannot read (another dialect) leaves the check to the upstream,
 * and so do its regular expressions (`pattern`, `patternProperties`: ReDoS on this server's one thread).
 */
function upstreamArgumentValidator(schema: JsonSchema, compiler: RawSchemaCompiler): McpArgumentValidator {
  let compiled: McpArgumentValidator | undefined;
  const compile = (): McpArgumentValidator => {
    // Upstreams often name draft-07 (`$schema`), which ajv's 2020-12 instance would refuse to load: read it as 2020-12.
    const readable: JsonSchema = { ...schema };
    delete readable.$schema;
    try {
      return compiler.compile(readable, { transient: true, foreign: true });
    } catch {
      return ANY_ARGUMENTS_VALIDATOR;
    }
  };
  return { validate: (raw) => (compiled ??= compile()).validate(raw), revive: acceptedAsSent };
}

/**
 * An upstream tool as one of ours: namespaced, its schemas shown as the upstream sent them (its descriptor checked
 * first: `toolDescriptorProblem`), its arguments validated against its `inputSchema`, scoped by the upstream's
 * `scopes`, run by our call pipeline (auth, scopes, limits, idempotency, metrics) and answered with the upstream's
 * result untouched.
 */
export function upstreamTool(upstream: McpUpstream, remote: McpRemoteTool, compiler: RawSchemaCompiler): McpToolDefinition {
  const name = upstreamToolName(upstream.name, remote.name);
  const inputSchema = (remote.inputSchema ?? { type: 'object' }) as JsonSchema;
  return {
    name,
    site: `upstream "${upstream.name}" tool "${remote.name}"`,
    descriptor: {
      name,
      ...(typeof remote.title === 'string' && { title: remote.title }),
      description: typeof remote.description === 'string' ? remote.description : `${remote.name} (upstream ${upstream.name})`,
      inputSchema,
      ...(remote.outputSchema !== undefined && { outputSchema: remote.outputSchema as JsonSchema }),
      ...(remote.annotations !== undefined && { annotations: remote.annotations }),
    },
    validator: upstreamArgumentValidator(inputSchema, compiler),
    timeoutMs: upstream.timeoutMs,
    scopes: upstream.scopes,
    upstream: upstream.name,
    runtime: true,
    handler: async (args, context) =>
      McpResult.raw(await relay(upstream, () => upstream.callTool(remote.name, (args ?? {}) as Record<string, unknown>, context))),
  };
}

/** Prompts and resources have no scopes of their own here: the upstream's are checked when they are used. */
export function checkScopes(upstream: McpUpstream, context: Pick<McpHandlerContext, 'principal'>): void {
  const held = context.principal?.scopes;
  if (held === undefined) return;
  const missing = upstream.scopes.filter((scope) => !held.includes(scope));
  if (missing.length > 0) throw new ForbiddenException(`Missing scope(s) for the upstream "${upstream.name}": ${missing.join(', ')}`);
}

/** An upstream prompt as one of ours (`<upstream>_<name>`). */
export function upstreamPrompt(upstream: McpUpstream, remote: McpRemotePrompt): McpPromptRegistration {
  return {
    name: upstreamToolName(upstream.name, remote.name),
    ...(typeof remote.title === 'string' && { title: remote.title }),
    description: typeof remote.description === 'string' ? remote.description : `${remote.name} (upstream ${upstream.name})`,
    ...(Array.isArray(remote.arguments) && {
      arguments: remote.arguments.map(({ name, description, required }) => ({
        name,
        ...(description !== undefined && { description }),
        ...(required !== undefined && { required }),
      })),
    }),
    handler: async (args, context) => {
      checkScopes(upstream, context);
      return relay(upstream, () => upstream.getPrompt(remote.name, args, context));
    },
  };
}

/** Reads an upstream URI for our caller; the contents name our URIs. */
async function read(upstream: McpUpstream, uri: string, context: McpHandlerContext) {
  checkScopes(upstream, context);
  return relay(upstream, async () => {
    const result = await upstream.readResource(uri, context);
    return {
      contents: result.contents.map((content) => ({
        ...content,
        uri: upstreamUri(upstream.name, typeof content.uri === 'string' ? content.uri : uri),
      })),
    };
  });
}

/** An upstream resource as one of ours (`<upstream>+<uri>`). */
export function upstreamResource(upstream: McpUpstream, remote: McpRemoteResource): McpFixedResourceRegistration {
  return { uri: upstreamUri(upstream.name, remote.uri), ...asOurs(upstream, remote) };
}

/** An upstream resource template as one of ours (`<upstream>+<template>`). */
export function upstreamResourceTemplate(upstream: McpUpstream, remote: McpRemoteResourceTemplate): McpResourceTemplateRegistration {
  return { uriTemplate: upstreamUri(upstream.name, remote.uriTemplate), ...asOurs(upstream, remote) };
}

/** A resource or template of the upstream's as ours but for its URI: a read is of the URI our caller read, unprefixed. */
function asOurs(upstream: McpUpstream, remote: McpRemoteResource | McpRemoteResourceTemplate) {
  return {
    name: remote.name,
    ...(typeof remote.title === 'string' && { title: remote.title }),
    ...(typeof remote.description === 'string' && { description: remote.description }),
    ...(typeof remote.mimeType === 'string' && { mimeType: remote.mimeType }),
    handler: (_variables: unknown, context: McpResourceContext) =>
      read(upstream, originalUri(upstream.name, context.uri) ?? context.uri, context),
  };
}
