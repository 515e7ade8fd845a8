import { Module } from '@nestjs/common';
import { AlertStore } from './alert.store.js';
import { AlertTools } from './alert.tools.js';

@Module({ providers: [AlertStore, AlertTools] })
export class AlertsModule {}
