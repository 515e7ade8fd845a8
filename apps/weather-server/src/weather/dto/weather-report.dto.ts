import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsInt, IsNumber, IsString, ValidateNested } from 'class-validator';
import { TEMPERATURE_UNITS } from './temperature-unit.js';

/** The city a report is about. */
export class CityInfoDto {
  @IsString() id: string;
  @IsString() name: string;
  @IsString() nameZh: string;
  @IsString() country: string;
}

/** The `data` of a successful `get_weather` call: declared as the tool's output, so clients get an outputSchema. */
export class WeatherReportDto {
  // Every report names its city: @IsDefined() says so (@ValidateNested() alone lets it be absent).
  @IsDefined()
  @ValidateNested()
  @Type(() => CityInfoDto)
  city: CityInfoDto;

  @IsString() date: string;
  @IsString() condition: string;
  @IsIn(TEMPERATURE_UNITS) unit: string;
  @IsNumber() temperature: number;
  @IsNumber() high: number;
  @IsNumber() low: number;
  @IsInt() humidityPercent: number;
  @IsInt() windKph: number;
  @IsNumber() precipitationMm: number;
}
