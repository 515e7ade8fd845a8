/** RFC 5424 levels used by MCP logging. @publicApi */
export type McpLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** RFC 5424 severity order, lowest first. */
export const LOG_LEVELS: readonly McpLogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
