import type { McpContentBlock } from '../../core/results/content.types.js';
import { isPlainObject } from '../../core/plain-object.js';

/** One message of a rendered prompt. @publicApi */
export interface McpPromptMessage {
  role: 'user' | 'assistant';
  content: McpContentBlock;
}

/** The `prompts/get` result. @publicApi */
export interface McpGetPromptResult {
  description?: string;
  messages: McpPromptMessage[];
}

/**
 * What a prompt method may return: a string (one user text message), messages, or the whole result. A message's
 * `content` may be a plain string, sent as a text block.
 * @publicApi
 * @example
 * return [
 *   { role: 'user', content: McpContent.image(png, 'image/png') },
 *   { role: 'user', content: 'Please analyze the image above.' },
 * ];
 */
export type McpPromptValue = string | McpPromptMessageInput[] | { description?: string; messages: McpPromptMessageInput[] };

/** A message as a prompt method may write it. @publicApi */
export interface McpPromptMessageInput {
  role: 'user' | 'assistant';
  content: McpContentBlock | string;
}

const isString = (value: unknown): value is string => typeof value === 'string';

/** The `prompts/get` result for a prompt method's return value; undefined for anything else (a programming error). */
export function toGetPromptResult(value: unknown): McpGetPromptResult | undefined {
  if (typeof value === 'string') return { messages: [{ role: 'user', content: { type: 'text', text: value } }] };
  const input = Array.isArray(value) ? { messages: value } : value;
  if (!isPlainObject(input) || !Array.isArray(input.messages)) return undefined;
  if (input.description !== undefined && !isString(input.description)) return undefined;
  const messages: McpPromptMessage[] = [];
  for (const message of input.messages) {
    const normalised = toMessage(message);
    if (!normalised) return undefined;
    messages.push(normalised);
  }
  return input.description === undefined ? { messages } : { description: input.description, messages };
}

function toMessage(message: unknown): McpPromptMessage | undefined {
  if (!isPlainObject(message) || (message.role !== 'user' && message.role !== 'assistant')) return undefined;
  const content = typeof message.content === 'string' ? { type: 'text', text: message.content } : message.content;
  return isContentBlock(content) ? { role: message.role, content } : undefined;
}

/** The fields each content block needs on the wire (embedded resources: uri and text or blob, as the spec requires). */
function isContentBlock(content: unknown): content is McpContentBlock {
  if (!isPlainObject(content)) return false;
  switch (content.type) {
    case 'text':
      return isString(content.text);
    case 'image':
    case 'audio':
      return isString(content.data) && isString(content.mimeType);
    case 'resource_link':
      return isString(content.uri) && isString(content.name);
    case 'resource': {
      const resource = content.resource;
      return isPlainObject(resource) && isString(resource.uri) && (isString(resource.text) || isString(resource.blob));
    }
    default:
      return false;
  }
}
