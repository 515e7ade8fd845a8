import { Module } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { McpServerDirectory } from './options/mcp-server.directory.js';
import { McpMetricFamilies } from './observability/metrics/metric-families.js';
import { McpBootNotices } from './core/boot-notices.js';

/** What the MCP servers of one app share (created once per app): the directory, metric families, boot notices. */
@Module({
  providers: [
    {
      provide: McpServerDirectory,
      useFactory: (modules: ModulesContainer) => new McpServerDirectory(countServers(modules)),
      inject: [ModulesContainer],
    },
    McpMetricFamilies,
    McpBootNotices,
  ],
  exports: [McpServerDirectory, McpMetricFamilies, McpBootNotices],
})
export class McpServersModule {}

/** The app's servers: its modules importing this one (each `McpModule.forRoot` / `forRootAsync` does, and nothing else). */
function countServers(modules: ModulesContainer): number {
  return [...modules.values()].filter((module) => [...module.imports].some((imported) => imported?.metatype === McpServersModule)).length;
}
