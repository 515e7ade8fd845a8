import { Injectable } from '@nestjs/common';

/**
 * Server capabilities declared by `initialize`. Each feature declares its own when it has something to serve
 * (tools, resources, prompts, completions...), so only what is really served is announced.
 */
@Injectable()
export class McpCapabilities {
  private readonly declared: Record<string, Record<string, unknown>> = { tools: {}, logging: {} };

  declare(name: string, value: Record<string, unknown> = {}): void {
    this.declared[name] = { ...(this.declared[name] ?? {}), ...value };
  }

  has(name: string): boolean {
    return name in this.declared;
  }

  toJSON(): Record<string, Record<string, unknown>> {
    return this.declared;
  }
}
