import 'reflect-metadata';
import { describePlanAgreement } from '../kit/validation-agreement.js';
import { GetWeatherDto } from '../../apps/weather-server/src/weather/dto/get-weather.dto.js';
import { GetForecastDto } from '../../apps/weather-server/src/weather/dto/get-forecast.dto.js';
import { WeatherReportDto } from '../../apps/weather-server/src/weather/dto/weather-report.dto.js';
import { CreateWeatherAlertDto } from '../../apps/weather-server/src/alerts/dto/create-weather-alert.dto.js';
import { ListWeatherAlertsDto } from '../../apps/weather-server/src/alerts/dto/list-weather-alerts.dto.js';
import { DeleteWeatherAlertDto } from '../../apps/weather-server/src/alerts/dto/delete-weather-alert.dto.js';
import { GetAirQualityDto } from '../../apps/weather-server/src/air-quality/dto/get-air-quality.dto.js';

/**
 * Every DTO of the sample app gets a compiled validation plan (no class-transformer / class-validator per call),
 * and the plan answers exactly as those libraries do: instance, fields and messages. ClimateReportDto is the
 * exception: its custom @IsKnownCity() (an unknown city refused before the job is queued) keeps it on
 * class-transformer + class-validator, which the plan does not replace for custom validators.
 */
describePlanAgreement([
  [GetWeatherDto, { city: 'Paris', unit: 'fahrenheit' }],
  [GetForecastDto, { city: 'Paris', days: 14, unit: 'celsius' }],
  [
    WeatherReportDto,
    {
      city: { id: 'c1', name: 'Beijing', nameZh: '北京', country: 'CN' },
      date: '2026-01-02',
      condition: 'sunny',
      unit: 'celsius',
      temperature: 1.5,
      high: 3,
      low: -1,
      humidityPercent: 40,
      windKph: 5,
      precipitationMm: 0,
    },
  ],
  [CreateWeatherAlertDto, { city: 'Paris', threshold_celsius: -90, priority: 'high', idempotency_key: 'k'.repeat(16) }],
  [ListWeatherAlertsDto, { cursor: 'abc', limit: 200 }],
  [DeleteWeatherAlertDto, { alert_id: 'a1' }],
  [GetAirQualityDto, { city: 'Beijing' }],
]);
