import { Injectable } from '@nestjs/common';
import { McpUiResource } from '@nest-mcp/core';
import { WEATHER_CARD_HTML } from './weather-card.html.js';

/** The URI `get_weather` and `get_forecast` name in `ui.resourceUri`. */
export const WEATHER_CARD_URI = 'ui://weather/card';

/** Serves the weather card app to MCP Apps hosts (`resources/read` of `ui://weather/card`). */
@Injectable()
export class WeatherCardResource {
  @McpUiResource({
    uri: WEATHER_CARD_URI,
    name: 'weather-card',
    title: 'Weather card',
    description: 'Renders get_weather and get_forecast results: city, temperature, conditions and the forecast days.',
    prefersBorder: true,
  })
  card(): string {
    return WEATHER_CARD_HTML;
  }
}
