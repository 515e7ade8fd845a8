/** Tool names every MCP client accepts: letters, digits, underscore, hyphen, 1 to 64 characters. @publicApi */
export const MCP_TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Normalises any text into a tool name: lowercase, every character outside `[a-z0-9_]` becomes `_`,
 * runs of `_` collapse to one, and a leading digit gets the prefix `t_`.
 * @publicApi
 * @example normalizeToolName('Get Weather (v2)') // 'get_weather_v2_'
 */
export function normalizeToolName(input: string): string {
  const name = input
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .replace(/_+/g, '_');
  return /^[0-9]/.test(name) ? `t_${name}` : name;
}

/** `getWeather` → `get_weather`, `fetchHTTPStatus` → `fetch_http_status`: the default name of a tool method. */
export function methodNameToToolName(methodName: string): string {
  return methodName
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}
