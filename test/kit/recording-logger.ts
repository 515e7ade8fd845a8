import { ConsoleLogger } from '@nestjs/common';

/** A Nest logger that prints nothing and keeps the `log` and `warn` lines of a boot, for specs that read them. */
export class RecordingLogger extends ConsoleLogger {
  readonly logs: string[] = [];
  readonly warnings: string[] = [];
  override log(message: unknown): void {
    this.logs.push(String(message));
  }
  override warn(message: unknown): void {
    this.warnings.push(String(message));
  }
  override verbose(): void {}
  override debug(): void {}
}
