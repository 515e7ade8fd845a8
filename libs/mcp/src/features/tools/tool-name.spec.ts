import { MCP_TOOL_NAME_PATTERN, methodNameToToolName, normalizeToolName } from './tool-name.js';

describe('normalizeToolName', () => {
  it.each([
    ['Get Weather', 'get_weather'],
    ['get-weather', 'get_weather'],
    ['a..b--c', 'a_b_c'],
    ['__x__', '_x_'],
    ['3d_render', 't_3d_render'],
    ['天气 query', '_query'],
    ['already_ok', 'already_ok'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeToolName(input)).toBe(expected);
  });
});

describe('methodNameToToolName', () => {
  it.each([
    ['getWeather', 'get_weather'],
    ['getForecast', 'get_forecast'],
    ['fetchHTTPStatus', 'fetch_http_status'],
    ['ping', 'ping'],
    ['get2DayForecast', 'get2_day_forecast'],
  ])('%s -> %s', (input, expected) => {
    expect(methodNameToToolName(input)).toBe(expected);
  });
});

describe('MCP_TOOL_NAME_PATTERN', () => {
  it('accepts letters, digits, underscore and hyphen up to 64 characters', () => {
    expect(MCP_TOOL_NAME_PATTERN.test('get_weather-v2')).toBe(true);
    expect(MCP_TOOL_NAME_PATTERN.test('a'.repeat(64))).toBe(true);
  });
  it.each(['', 'a'.repeat(65), 'has space', 'dot.name', 'slash/name', '天气'])('rejects %j', (name) => {
    expect(MCP_TOOL_NAME_PATTERN.test(name)).toBe(false);
  });
});
