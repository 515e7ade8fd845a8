/**
 * The part of the browser's DOM the explorer's page script uses, declared here instead of `lib: ["dom"]`: the
 * library is one TypeScript program, and the DOM lib (or a `/// <reference lib="dom" />`) would declare `document`,
 * `window` and friends as globals for every server file too. These are plain module types; the page script binds
 * the browser's globals to them with module-scoped `declare const`s.
 */

/** A node of the page (any element). */
export interface DomElement {
  textContent: string | null;
  className: string;
  hidden: boolean;
  readonly isConnected: boolean;
  readonly classList: { add(name: string): void; remove(name: string): void };
  readonly lastChild: DomElement | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  append(...nodes: (DomElement | string)[]): void;
  prepend(...nodes: (DomElement | string)[]): void;
  replaceChildren(...nodes: (DomElement | string)[]): void;
  replaceWith(node: DomElement): void;
  insertBefore(node: DomElement, child: DomElement | null): void;
  contains(node: DomElement): boolean;
  remove(): void;
  querySelector<E extends DomElement = DomElement>(selector: string): E | null;
  querySelectorAll(selector: string): { forEach(visit: (node: DomElement) => void): void };
  addEventListener(type: string, listener: (event: { preventDefault(): void }) => void): void;
}

/** `<input>`, `<select>`, `<textarea>`. */
export interface DomField extends DomElement {
  value: string;
  checked: boolean;
}

/** `<button>`. */
export interface DomButton extends DomElement {
  disabled: boolean;
}

/** `<progress>`. */
export interface DomProgress extends DomElement {
  max: number;
  value: number;
}

/** Where `postMessage` delivers: a frame's window. */
export interface DomMessageTarget {
  postMessage(message: unknown, targetOrigin: string): void;
}

/** `<iframe>`. */
export interface DomFrame extends DomElement {
  readonly contentWindow: DomMessageTarget | null;
}

/** The element types `createElement` answers by tag; any other tag is a {@link DomElement}. */
export interface DomElementsByTag {
  input: DomField;
  select: DomField;
  textarea: DomField;
  button: DomButton;
  progress: DomProgress;
  iframe: DomFrame;
}

/** The element `createElement(tag)` answers. */
export type DomElementOf<Tag extends string> = Tag extends keyof DomElementsByTag ? DomElementsByTag[Tag] : DomElement;

/** `document`. */
export interface DomDocument {
  readonly body: DomElement;
  getElementById(id: string): DomElement | null;
  createElement<Tag extends string>(tag: Tag): DomElementOf<Tag>;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): { forEach(visit: (node: DomElement) => void): void };
}

/** A `message` event from a frame. */
export interface DomMessageEvent {
  readonly source: unknown;
  readonly data: unknown;
}

/** `window`. */
export interface DomWindow {
  addEventListener(type: 'message', listener: (event: DomMessageEvent) => void): void;
  addEventListener(type: 'pagehide', listener: () => void): void;
  removeEventListener(type: 'message', listener: (event: DomMessageEvent) => void): void;
}

/** The browser's `fetch` options the page uses (Node's typing lacks `cache`). */
export interface DomRequestInit {
  method: 'POST' | 'DELETE';
  headers: Record<string, string>;
  body?: string;
  cache?: 'no-store';
  keepalive?: boolean;
}

/** What `fetch` answers. */
export interface DomResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}
