import { Inject, Injectable, Optional, type OnModuleInit } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import { MCP_TOOL_SCOPES, type McpToolScopesSource } from '../../core/tool-scopes.port.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import { MCP_STORE, type McpKeyValueStore } from '../../stores/key-value.store.js';
import { McpOAuthBridge } from './oauth-bridge.js';

/** Holds the bridge of `auth.bridge` (none without it) and discovers its identity provider at boot. */
@Injectable()
export class McpOAuthBridgeHost implements OnModuleInit {
  readonly bridge?: McpOAuthBridge;

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) options: McpResolvedOptions,
    @Inject(MCP_STORE) store: McpKeyValueStore,
    @Optional() @Inject(MCP_TOOL_SCOPES) toolScopes?: McpToolScopesSource,
  ) {
    const bridge = options.auth.bridge;
    if (bridge) this.bridge = new McpOAuthBridge(bridge, store, () => toolScopes?.() ?? []);
  }

  async onModuleInit(): Promise<void> {
    await this.bridge?.start();
  }
}
