import type { McpBootErrorDetail } from '../../core/errors/boot-errors.js';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';

/** What every registered tool, prompt, resource or template carries. */
export interface McpComponentEntry<D = unknown> {
  /** Where it was declared (`Class#method`, `McpToolRegistry.register("name")`), for messages. */
  readonly site: string;
  /** What its list method serialises. */
  readonly descriptor: D;
  /** Registered at runtime: only these may be replaced or removed. */
  readonly runtime?: boolean;
}

/** The coded boot errors of one kind (its `*.messages.ts` entries). */
export interface McpComponentMessages {
  /** A second component with the key at boot. */
  duplicate(key: string, existing: string, site: string): McpBootErrorDetail;
  /** `register()` of a key in use. */
  taken(site: string, existing: string): McpBootErrorDetail;
  /** `replace()` or `remove()` of a key nothing registered at runtime. */
  notRegistered(site: string): McpBootErrorDetail;
  /** `replace()` or `remove()` of a decorated component. */
  decorated(site: string, existing: string): McpBootErrorDetail;
  /** A runtime change while the module option says the list never changes. */
  listChangedOff(site: string): McpBootErrorDetail;
}

/** How one kind of component is kept. */
export interface McpComponentRegistryOptions {
  readonly messages: McpComponentMessages;
  /** Whether the list may change at runtime (`lists.listChanged: { <kind>: true }`); clients were told otherwise. */
  readonly changesAtRuntime: boolean;
  /** Announces a runtime change (`notifications/<kind>/list_changed` to every session on every instance). */
  readonly announce: () => void;
}

/**
 * One kind of component, keyed by name or URI, in registration order (the order its list pages through): filled at
 * boot (a duplicate key fails it naming both sites), changed at runtime through {@link register}, {@link replace}
 * and {@link remove}, each announced to clients. The request path only reads.
 */
export class McpComponentRegistry<T extends McpComponentEntry> {
  private readonly entries = new Map<string, T>();
  private list: T['descriptor'][] = [];
  private entryList: T[] = [];
  /** Set once `descriptors()` or `inOrder()` handed the arrays out: the next change copies them first. */
  private shared = false;

  constructor(private readonly options: McpComponentRegistryOptions) {}

  /** Adds a component at boot; a second one with the same key throws, naming both sites. */
  add(key: string, entry: T): void {
    const existing = this.entries.get(key);
    if (existing) throw new McpConfigurationError(this.options.messages.duplicate(key, existing.site, entry.site));
    this.entries.set(key, entry);
    // Copy-on-write: a boot of 10,000 components appends in place (copying on every add was quadratic), while an
    // array already handed out never changes under its holder.
    this.unshare();
    this.list.push(entry.descriptor);
    this.entryList.push(entry);
  }

  /** Throws when the list may not change at runtime: a change clients never hear of is a bug. */
  checkRuntime(site: string): void {
    if (!this.options.changesAtRuntime) throw new McpConfigurationError(this.options.messages.listChangedOff(site));
  }

  /** Adds a component at runtime; a key in use throws. */
  register(key: string, entry: T): void {
    const existing = this.entries.get(key);
    if (existing) throw new McpConfigurationError(this.options.messages.taken(entry.site, existing.site));
    this.add(key, entry);
    this.options.announce();
  }

  /** Swaps a runtime component for a new definition, keeping its place in the list. */
  replace(key: string, entry: T): void {
    const previous = this.runtimeEntry(key, entry.site);
    this.entries.set(key, entry);
    this.list = this.list.map((descriptor) => (descriptor === previous.descriptor ? entry.descriptor : descriptor));
    this.entryList = this.entryList.map((existing) => (existing === previous ? entry : existing));
    this.options.announce();
  }

  /** Removes a runtime component; false when there is none with the key. Calls in flight finish. */
  remove(key: string, site: string): boolean {
    if (!this.entries.has(key)) return false;
    const previous = this.runtimeEntry(key, site);
    this.entries.delete(key);
    this.list = this.list.filter((descriptor) => descriptor !== previous.descriptor);
    this.entryList = this.entryList.filter((existing) => existing !== previous);
    this.options.announce();
    return true;
  }

  get(key: string): T | undefined {
    return this.entries.get(key);
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  get size(): number {
    return this.entries.size;
  }

  values(): IterableIterator<T> {
    return this.entries.values();
  }

  /** The descriptors in registration order; the same array until the next change. */
  descriptors(): readonly T['descriptor'][] {
    this.shared = true;
    return this.list;
  }

  /** The entries in registration order (index for index with {@link descriptors}); the same array until the next change. */
  inOrder(): readonly T[] {
    this.shared = true;
    return this.entryList;
  }

  private unshare(): void {
    if (!this.shared) return;
    this.list = [...this.list];
    this.entryList = [...this.entryList];
    this.shared = false;
  }

  /** The entry with this key, registered at runtime; otherwise an error naming `site`. */
  private runtimeEntry(key: string, site: string): T {
    const existing = this.entries.get(key);
    if (!existing) throw new McpConfigurationError(this.options.messages.notRegistered(site));
    if (!existing.runtime) throw new McpConfigurationError(this.options.messages.decorated(site, existing.site));
    return existing;
  }
}
