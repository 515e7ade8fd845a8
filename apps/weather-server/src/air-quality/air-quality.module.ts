import { Module } from '@nestjs/common';
import { AirQualityBetaFilter } from './air-quality-beta.filter.js';
import { AirQualityTools } from './air-quality.tools.js';

/** The beta air-quality tool and the filter (module option `tools.filters`) that shows it to beta tenants only. */
@Module({ providers: [AirQualityTools, AirQualityBetaFilter] })
export class AirQualityModule {}
