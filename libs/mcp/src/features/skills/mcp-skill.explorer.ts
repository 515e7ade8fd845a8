import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { McpCapabilities } from '../../core/mcp-capabilities.js';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import { MCP_SKILL_PROVIDER_METADATA } from './mcp-skill-provider.decorator.js';
import { MCP_SKILLS_EXTENSION } from '../../core/mcp-skills.constants.js';
import type { McpSkillSource } from './mcp-skill.interface.js';
import { McpSkillRegistry } from './mcp-skill.registry.js';
import { loadSkillFolder } from './skill-folder.loader.js';
import { McpProviderMethods } from '../provider-methods.js';

/**
 * Loads the `sources.skills` folders (a bad skill fails the boot with an `MCP_ERR_SKILL_*` code), finds the
 * `@McpSkillProvider()` classes, and declares the extension (with `directoryRead`) and `resources` when skills
 * are served.
 */
@Injectable()
export class McpSkillExplorer implements OnModuleInit {
  constructor(
    private readonly registry: McpSkillRegistry,
    private readonly providerMethods: McpProviderMethods,
    private readonly capabilities: McpCapabilities,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  async onModuleInit(): Promise<void> {
    for (const folder of this.options.sources.skills) this.registry.addFolderSkills(await loadSkillFolder(folder));
    const providers = [];
    for (const wrapper of this.providerMethods.providers()) {
      if (wrapper.isAlias || !wrapper.instance) continue;
      const type = (Object.getPrototypeOf(wrapper.instance) as { constructor?: unknown } | null)?.constructor;
      if (typeof type !== 'function' || !Reflect.getMetadata(MCP_SKILL_PROVIDER_METADATA, type)) continue;
      providers.push({ site: type.name, provider: wrapper.instance as McpSkillSource });
    }
    this.registry.setProviders(providers);
    if (!this.registry.served) return;
    // Skill files are read with resources/read, so the base capability comes with the extension.
    this.capabilities.declare('resources');
    this.capabilities.declare('extensions', { [MCP_SKILLS_EXTENSION]: { directoryRead: true } });
  }
}
