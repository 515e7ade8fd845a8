import { Injectable, Logger } from '@nestjs/common';

/**
 * Boot warnings said once per app: its MCP servers (each `McpModule.forRoot`) share this instance through
 * `McpServersModule`, so a warning that holds for every server (no authentication configured, a random
 * `requestState.secret`, a DTO property's missing presence rule) is printed once, not once per server. Two apps in
 * one process share nothing.
 */
@Injectable()
export class McpBootNotices {
  private readonly said = new Set<string>();

  /** Logs `message` as a warning under `context` unless this app already said exactly that. */
  warn(context: string, message: string): void {
    const key = `${context}\n${message}`;
    if (this.said.has(key)) return;
    this.said.add(key);
    new Logger(context).warn(message);
  }
}
