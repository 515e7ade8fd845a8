import { Module } from '@nestjs/common';
import { McpModule } from '@nest-mcp/core';
import { ContentTools } from './tools/content.tools.js';
import { InteractiveTools } from './tools/interactive.tools.js';
import { FixturePrompts } from './prompts/fixture.prompts.js';
import { FixtureResources } from './resources/fixture.resources.js';
import { REV_2026_07_28_FIXTURES } from './rev-2026-07-28/rev-2026-07-28.fixtures.js';
import { CONFORMANCE_SKILLS_FOLDER } from './skills-folder.js';

/** The fixture the official conformance suite expects, built only with the library's public API. */
@Module({
  imports: [
    McpModule.forRoot({
      name: 'conformance-server',
      version: '1.0.0',
      // DNS-rebinding protection as the suite checks it: a foreign Host or Origin gets 403.
      http: { allowedHosts: ['localhost', '127.0.0.1', '[::1]'] },
      // 2026-07-28: the trigger tools announce list changes to subscriptions/listen streams.
      lists: { listChanged: { tools: true, prompts: true } },
      // SEP-2640: the skills of apps/conformance-server/skills, for the sep-2640-* scenarios.
      sources: { skills: [CONFORMANCE_SKILLS_FOLDER] },
    }),
  ],
  providers: [ContentTools, InteractiveTools, FixtureResources, FixturePrompts, ...REV_2026_07_28_FIXTURES],
})
export class AppModule {}
