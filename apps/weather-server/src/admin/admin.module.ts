import { Module } from '@nestjs/common';
import { AlertsModule } from '../alerts/alerts.module.js';
import { AdminTools } from './admin.tools.js';

/**
 * The admin tools, served only by the second MCP server at `/admin/mcp` (its `include: [AdminModule]`); the main
 * server at `/mcp` does not include this module, so it never lists them.
 */
@Module({ imports: [AlertsModule], providers: [AdminTools] })
export class AdminModule {}
