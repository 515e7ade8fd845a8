import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller.js';

/** Terminus health checks; the indicators come from the global McpModule. */
@Module({
  imports: [TerminusModule.forRoot()],
  controllers: [HealthController],
})
export class HealthModule {}
