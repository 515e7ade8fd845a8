/** MCP content blocks a tool may return through `McpResult.raw()` or the `McpContent` helpers. @publicApi */
export interface McpContentAnnotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

/**
 * A resource as MCP describes it: a `resources/list` entry, and what a `resource_link` content block says of it.
 * @publicApi
 */
export interface McpResourceLink {
  uri: string;
  /** Programmatic name. Required. */
  name: string;
  /** Human-readable display name. */
  title?: string;
  /** What the resource holds, for the model and the user. */
  description?: string;
  /** MIME type of the contents. */
  mimeType?: string;
  /** Size of the raw contents in bytes, when known (lets clients estimate context use). */
  size?: number;
  /** Audience, priority and last-modified hints for clients. */
  annotations?: McpContentAnnotations;
}

/** @publicApi */
export type McpContentBlock =
  | { type: 'text'; text: string; annotations?: McpContentAnnotations; _meta?: Record<string, unknown> }
  | { type: 'image'; data: string; mimeType: string; annotations?: McpContentAnnotations; _meta?: Record<string, unknown> }
  | { type: 'audio'; data: string; mimeType: string; annotations?: McpContentAnnotations; _meta?: Record<string, unknown> }
  | ({ type: 'resource_link'; _meta?: Record<string, unknown> } & McpResourceLink)
  | {
      type: 'resource';
      resource: { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string };
      annotations?: McpContentAnnotations;
      _meta?: Record<string, unknown>;
    };

/** The `tools/call` result as it goes on the wire. @publicApi */
export interface McpCallToolResult {
  content: McpContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}
