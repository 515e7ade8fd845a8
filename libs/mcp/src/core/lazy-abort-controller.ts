/**
 * An `AbortController` made on first use. Most requests never read their signal nor get cancelled, and a real
 * controller (with its `AbortSignal`, an `EventTarget`) costs a few µs per request; this one costs an object.
 * Reading `signal` or calling `abort` makes the real one, so every reader sees the same signal and reason.
 */
export class LazyAbortController implements AbortController {
  private made?: AbortController;

  get signal(): AbortSignal {
    return (this.made ??= new AbortController()).signal;
  }

  abort(reason?: unknown): void {
    (this.made ??= new AbortController()).abort(reason);
  }

  /** Whether it was aborted with a reason of class `type`, without making the controller when it never was. */
  abortedWith(type: abstract new (...args: never[]) => unknown): boolean {
    const signal = this.made?.signal;
    return signal !== undefined && signal.aborted && signal.reason instanceof type;
  }
}
