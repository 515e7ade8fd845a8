import { execFile, execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { todayUtc } from '../../apps/weather-server/src/weather/weather.model.js';
import { expectedReport } from '../support/weather-expectations.js';
import { type RunningApp, startWeatherApp } from '../kit/apps.js';
import { PYTHON } from '../kit/python.js';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'python/call_weather.py');

/** What `call_weather.py` reads from the client's typed result. */
interface TypedResultSummary {
  is_error: boolean;
  result_type: string;
  status: string | null;
  city: string | null;
  temperature: number | null;
  data_type: string;
  is_dataclass?: boolean;
}

/** Why the Python clients cannot run here (no python3, or a package missing), or `undefined` when they can. */
function missingPython(): string | undefined {
  try {
    execFileSync(PYTHON, ['-c', 'import mcp.client, fastmcp'], { stdio: 'pipe', timeout: 20_000 });
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? 'python3 is not installed'
      : "the Python packages mcp and fastmcp are not installed (.ci/ensure-test-deps, npm test's pretest, installs them into .venv/)";
  }
}

function callWeather(client: 'mcp' | 'fastmcp', url: string, city: string): Promise<TypedResultSummary> {
  return new Promise((resolve, reject) => {
    execFile(
      PYTHON,
      [SCRIPT, client, url, city],
      { timeout: 20_000, env: { ...process.env, PYTHONWARNINGS: 'ignore' } },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`call_weather.py ${client} failed: ${error.message}\n${stderr}`));
        try {
          resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '') as TypedResultSummary);
        } catch {
          reject(new Error(`call_weather.py ${client} printed no JSON: ${stdout}\n${stderr}`));
        }
      },
    );
  });
}

/**
 * Typed Python clients build their result type from the tool's outputSchema: FastMCP turns it into a dataclass
 * (`result.data`) and keeps only the properties the schema lists at its root; the official `mcp` SDK validates
 * structured content against it. get_weather's data (city, temperature) must survive both.
 */
const missing = missingPython();
if (missing) console.log(`SKIP: Python MCP clients e2e: ${missing}`);
const describeWithPython = missing ? describe.skip : describe;

describeWithPython('Python clients over Streamable HTTP (official mcp SDK, FastMCP)', () => {
  let weather: RunningApp;
  const expected = () => expectedReport('Beijing', todayUtc());

  beforeAll(async () => {
    weather = await startWeatherApp();
  });
  afterAll(() => weather?.close());

  it('mcp: get_weather structured content validates against the outputSchema and carries the data', async () => {
    const summary = await callWeather('mcp', weather.url, 'Beijing');
    expect(summary).toMatchObject({ is_error: false, status: 'success', city: 'Beijing', temperature: expected().temperature });
  });

  it('FastMCP: result.data is the typed envelope with its data intact', async () => {
    const summary = await callWeather('fastmcp', weather.url, 'Beijing');
    expect(summary).toMatchObject({
      is_error: false,
      is_dataclass: true,
      status: 'success',
      city: 'Beijing',
      temperature: expected().temperature,
    });
  });
});
