import { Inject, Injectable, Optional, type OnApplicationBootstrap } from '@nestjs/common';
import type { McpResolvedOptions } from '../options/mcp-module-options.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../core/mcp-resolved-options.token.js';
import { McpCapabilities } from '../core/mcp-capabilities.js';
import { MCP_BUS, type McpMessageBus } from '../core/message-bus.interface.js';
import { MCP_SESSION_STREAMS, type McpSessionStreams } from '../core/session-streams.interface.js';
import { McpRev20251125SessionTracker } from './rev-2025-11-25/rev-2025-11-25-sessions.tracker.js';
import { McpListenService } from './rev-2026-07-28/subscriptions/listen.service.js';
import { McpListChanges, type McpListKind as ListKind } from '../core/list-changes.js';

const BUS_CHANNEL = 'lists:changed';

/**
 * Delivers what `McpListChanges` hears (the app's `McpListChangedNotifier`, the registries' runtime changes):
 * `notifications/<kind>/list_changed` to `subscriptions/listen` streams and 2025-era GET streams on every instance.
 * Only lists enabled in `lists.listChanged` are announced.
 */
@Injectable()
export class McpListChangedAnnouncer implements OnApplicationBootstrap {
  constructor(
    private readonly capabilities: McpCapabilities,
    private readonly listens: McpListenService,
    @Inject(MCP_SESSION_STREAMS) private readonly streams: McpSessionStreams,
    private readonly sessions20251125: McpRev20251125SessionTracker,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    @Optional() @Inject(MCP_BUS) private readonly bus?: McpMessageBus,
  ) {}

  /** The app's announcements and what the registries change at runtime (McpToolRegistry.register, ...). */
  @Optional() @Inject(McpListChanges) private readonly changes?: McpListChanges;

  /** Declares `listChanged` once every feature has declared itself (a list that is not served stays undeclared). */
  async onApplicationBootstrap(): Promise<void> {
    this.changes?.listen((kind) => this.announce(kind));
    const wanted = this.options.lists.listChanged;
    for (const kind of ['tools', 'prompts', 'resources'] as const) {
      if (wanted[kind] && this.capabilities.has(kind)) this.capabilities.declare(kind, { listChanged: true });
    }
    if (!(['tools', 'prompts', 'resources'] as const).some((kind) => this.capabilities.toJSON()[kind]?.listChanged === true)) return;
    await this.bus?.subscribe(BUS_CHANNEL, (message) => {
      const kind = (message as { kind?: unknown } | null)?.kind;
      if (kind === 'tools' || kind === 'prompts' || kind === 'resources') this.deliver(kind);
    });
  }

  private announce(kind: ListKind): void {
    if (this.capabilities.toJSON()[kind]?.listChanged !== true) return;
    if (this.bus) void this.bus.publish(BUS_CHANNEL, { kind }).catch(() => this.deliver(kind));
    else this.deliver(kind);
  }

  private deliver(kind: ListKind): void {
    this.listens.listChanged(kind);
    const message = { jsonrpc: '2.0' as const, method: `notifications/${kind}/list_changed` };
    // Every instance runs this (the change is broadcast), so each only writes to the streams it holds itself.
    for (const sessionId of this.sessions20251125.sessions()) this.streams.notifyHere(sessionId, message);
  }
}
