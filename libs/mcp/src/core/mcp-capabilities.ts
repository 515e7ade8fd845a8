import { Injectable } from '@nestjs/common';

/** Server capabilities declared by `initialize`, each declared by its feature only when it has something to serve. */
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
