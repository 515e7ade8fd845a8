import { Logger } from '@nestjs/common';
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
  /** Scopes a caller must hold to see or use it (a scoped upstream's); none: everyone's. */
  readonly scopes?: readonly string[];
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
  private readonly logger = new Logger('McpModule');
  private readonly entries = new Map<string, T>();
  /** Keys a source holds (an upstream's components), by source: it alone may swap or withdraw them. */
  private readonly sources = new Map<string, string>();
  /** Keys the library keeps for itself (tool search, job tools): never a source's. */
  private readonly reserved = new Set<string>();
  /** Keys a source was refused, by source: the clash was warned of once. */
  private readonly refused = new Map<string, string>();
  /** Whether some entry has scopes: when none has, every caller's list is the whole list. */
  private scoped = false;
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
    if (entry.scopes?.length) this.scoped = true;
  }

  /** Throws when the list may not change at runtime: a change clients never hear of is a bug. */
  checkRuntime(site: string): void {
    if (!this.options.changesAtRuntime) throw new McpConfigurationError(this.options.messages.listChangedOff(site));
  }

  /**
   * Adds a component at runtime; a key the app or the library holds or keeps throws. A source's component with the key
   * gives way (the app's wins, with a warning): the source keeps only what it put there itself.
   */
  register(key: string, entry: T): void {
    const existing = this.entries.get(key);
    const source = this.sources.get(key);
    if (existing && source === undefined) throw new McpConfigurationError(this.options.messages.taken(entry.site, existing.site));
    // A reserved key without an entry (tool search's `call_tool`, an alias) would be shadowed: refused like a taken one.
    if (!existing && this.reserved.has(key)) throw new McpConfigurationError(this.options.messages.taken(entry.site, 'the library'));
    if (existing) {
      this.clash(source!, key, `${entry.site} takes it from ${existing.site}`);
      this.sources.delete(key);
      this.swap(key, existing, entry);
    } else {
      this.add(key, entry);
    }
    this.options.announce();
  }

  /** Swaps a runtime component for a new definition, keeping its place in the list. */
  replace(key: string, entry: T): void {
    this.swap(key, this.runtimeEntry(key, entry.site), entry);
    this.options.announce();
  }

  /** Removes a runtime component; false when there is none with the key (a source's is not the app's). Calls in flight finish. */
  remove(key: string, site: string): boolean {
    if (!this.entries.has(key) || this.sources.has(key)) return false;
    this.drop(key, this.runtimeEntry(key, site));
    return true;
  }

  /**
   * Adds, or swaps, a component of `source` (an upstream's): false, and one warning per clash, when the key is
   * another's (the app's, the library's, another source's) or reserved by the library. Announced like a runtime change.
   */
  putFrom(source: string, key: string, entry: T): boolean {
    const existing = this.entries.get(key);
    const holder = this.sources.get(key);
    if (this.reserved.has(key) || (existing && holder !== source)) {
      this.clash(source, key, `${existing?.site ?? 'the library'} holds it`);
      return false;
    }
    if (this.refused.get(key) === source) this.refused.delete(key);
    if (existing) this.swap(key, existing, entry);
    else this.add(key, entry);
    this.sources.set(key, source);
    this.options.announce();
    return true;
  }

  /** Removes a component `source` put there; nothing (false) when the key is another's. */
  withdraw(source: string, key: string): boolean {
    if (this.refused.get(key) === source) this.refused.delete(key);
    if (this.sources.get(key) !== source) return false;
    this.sources.delete(key);
    this.drop(key, this.entries.get(key)!);
    return true;
  }

  /** The source holding the key, if a source does. */
  sourceOf(key: string): string | undefined {
    return this.sources.get(key);
  }

  /**
   * Keeps `key` for the library (tool search, the job tools): no source may take it from now on, and a source's
   * component holding it now leaves, with a warning. The app's is the caller's to refuse.
   */
  reserve(key: string): void {
    this.reserved.add(key);
    const source = this.sources.get(key);
    if (source === undefined) return;
    this.clash(source, key, 'the library keeps it');
    this.sources.delete(key);
    this.drop(key, this.entries.get(key)!);
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

  /** The descriptors a caller holding `held` scopes may see (`held` undefined: no scopes known, everything). */
  descriptorsFor(held: readonly string[] | undefined): readonly T['descriptor'][] {
    if (!this.scoped || held === undefined) return this.descriptors();
    return this.entryList.filter((entry) => admits(entry, held)).map((entry) => entry.descriptor);
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

  /** Puts `entry` in `previous`'s place under `key` and in the lists. */
  private swap(key: string, previous: T, entry: T): void {
    this.entries.set(key, entry);
    this.list = this.list.map((descriptor) => (descriptor === previous.descriptor ? entry.descriptor : descriptor));
    this.entryList = this.entryList.map((existing) => (existing === previous ? entry : existing));
    if (entry.scopes?.length) this.scoped = true;
  }

  private drop(key: string, previous: T): void {
    this.entries.delete(key);
    this.list = this.list.filter((descriptor) => descriptor !== previous.descriptor);
    this.entryList = this.entryList.filter((existing) => existing !== previous);
    this.options.announce();
  }

  /** Warns once that `source` does not serve `key` (until it serves or withdraws it): a local name always wins. */
  private clash(source: string, key: string, why: string): void {
    if (this.refused.get(key) === source) return;
    this.refused.set(key, source);
    this.logger.warn(`${source}: "${key}" is not served from it: ${why} (a local or built-in name wins over a source's)`);
  }

  /** The entry with this key, registered at runtime by the app; otherwise an error naming `site`. */
  private runtimeEntry(key: string, site: string): T {
    const existing = this.entries.get(key);
    if (!existing || this.sources.has(key)) throw new McpConfigurationError(this.options.messages.notRegistered(site));
    if (!existing.runtime) throw new McpConfigurationError(this.options.messages.decorated(site, existing.site));
    return existing;
  }
}

/** Whether a caller holding `held` scopes (undefined: no scopes known) may see or use `entry`. */
export function admits(entry: { readonly scopes?: readonly string[] }, held: readonly string[] | undefined): boolean {
  return held === undefined || !entry.scopes || entry.scopes.every((scope) => held.includes(scope));
}
