import type { McpContentAnnotations, McpResourceLink } from '../../core/results/content.types.js';

/** Options of `@McpResource()`. @publicApi */
export interface McpResourceOptions extends McpResourceLink {
  /** Absolute URI with a scheme (`app://config`, `file:///notes.md`); unique among the server's resources. */
  uri: string;
  /** MIME type of the contents; also the default `mimeType` of what the method returns. */
  mimeType?: string;
}

/** Options of `@McpResourceTemplate()`. @publicApi */
export interface McpResourceTemplateOptions {
  /**
   * RFC 6570 level-1 template, absolute with a scheme: `{name}` matches one path segment (no `/`, `?` or `#`),
   * `{+name}` matches anything, `/` included. Unique among the server's templates.
   */
  uriTemplate: string;
  /** Programmatic name. Required. */
  name: string;
  title?: string;
  description?: string;
  /** MIME type of every matching resource; also the default `mimeType` of what the method returns. */
  mimeType?: string;
  annotations?: McpContentAnnotations;
}
