import { Injectable } from '@nestjs/common';
import { McpArgs, McpContext, McpTool, McpToolError, type McpToolContext } from '@nest-mcp/core';
import { setTimeout as sleep } from 'node:timers/promises';
import { findCity } from '../weather/city-lookup.js';
import { buildClimateYear, type ClimateYear } from './climate-report.builder.js';
import { ClimateReportDto } from './dto/climate-report.dto.js';

/** How long a report takes to "compute" (env `REPORT_DELAY_MS`, default 2 s): it stands for a slow backend. */
const reportDelayMs = () => Number(process.env.REPORT_DELAY_MS ?? 2000);

/** A long-running tool: the call answers `pending` at once and the report is built as a job. */
@Injectable()
export class ReportTools {
  @McpTool({
    description:
      'Climate report of a city over past years (mean, extremes, rain and snow days per year). Runs as a job: poll get_job_status with the returned job_id.',
    title: 'Climate report',
    scopes: ['weather:read'],
    job: { estimatedSeconds: 2 },
    timeoutMs: 120_000,
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  async generateClimateReport(@McpArgs() args: ClimateReportDto, @McpContext() context: McpToolContext) {
    const city = findCity(args.city);
    // @IsKnownCity() refused an unknown city before the job was queued; a city list that changed since still lands here.
    if (!city) throw new McpToolError('CITY_NOT_FOUND', `Unknown city "${args.city}"`, { retryable: false, fields: ['city'] });
    const lastYear = new Date().getUTCFullYear() - 1;
    const years: ClimateYear[] = [];
    const stepMs = reportDelayMs() / args.years;
    for (let index = 0; index < args.years; index += 1) {
      await sleep(stepMs, undefined, { signal: context.signal });
      years.push(buildClimateYear(city, lastYear - index));
      context.reportProgress(index + 1, args.years, `Year ${lastYear - index} done`);
    }
    const meanC = Math.round((years.reduce((sum, year) => sum + year.meanC, 0) / years.length) * 10) / 10;
    return { city: { id: city.id, name: city.name, nameZh: city.nameZh, country: city.country }, years: years.reverse(), meanC };
  }
}
