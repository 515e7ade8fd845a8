/** MCP content blocks a tool may return through `McpResult.raw()` or the `McpContent` helpers. @publicApi */
export interface McpContentAnnotations {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

/** @publicApi */
export type McpContentBlock =
  | { type: 'text'; text: string; annotations?: McpContentAnnotations; _meta?: Record<string, unknown> }
  | { type: 'image'; data: string; mimeType: string; annotations?: McpContentAnnotations; _meta?: Record<string, unknown> }
  | { type: 'audio'; data: string; mimeType: string; annotations?: McpContentAnnotations; _meta?: Record<string, unknown> }
  | {
      type: 'resource_link';
      uri: string;
      name: string;
      title?: string;
      description?: string;
      mimeType?: string;
      size?: number;
      annotations?: McpContentAnnotations;
      _meta?: Record<string, unknown>;
    }
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
