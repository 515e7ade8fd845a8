import { Module } from '@nestjs/common';
import { ReportTools } from './report.tools.js';

@Module({ providers: [ReportTools] })
export class ReportsModule {}
