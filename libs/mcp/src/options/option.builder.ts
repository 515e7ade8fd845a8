import { McpConfigurationError } from '../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../core/errors/mcp.messages.js';

/**
 * One declared option: its check and default and, for objects, its members (the known-key check walks them).
 * `In` is what the user writes, `Out` what the library reads, `C` what resolving needs beside (the paths).
 */
export interface McpOptionDeclaration<In, Out, C = unknown> {
  /** `value` as given (undefined when unset); `at` names the option in errors (`limits.rateLimit.windowMs`). */
  readonly resolve: (value: In | undefined, at: string, context: C) => Out;
  /** The keys of an object option. */
  readonly members?: McpOptionMembers<C>;
  /** The keys of each element of a list option (`auth.apiKeys[i]`). */
  readonly each?: McpOptionMembers<C>;
}

/** The declared members of an object option, in the order they are resolved and listed in errors. */
export type McpOptionMembers<C = unknown> = Readonly<Record<string, McpOptionDeclaration<never, unknown, C>>>;

/** What a declaration resolves to. */
export type ResolvedOption<D> = D extends { resolve: (...args: never[]) => infer Out } ? Out : never;

/** The resolved members of a group; a member that may resolve to undefined is optional. */
export type ResolvedMembers<M> = Flat<
  { [K in keyof M as undefined extends ResolvedOption<M[K]> ? never : K]: ResolvedOption<M[K]> } & {
    [K in keyof M as undefined extends ResolvedOption<M[K]> ? K : never]?: ResolvedOption<M[K]>;
  }
>;
type Flat<T> = { [K in keyof T]: T[K] };

/** Declarations of every key of `T` and no other, each taking what `T` allows there. */
type MembersOf<T, C> = { readonly [K in keyof Required<T>]: McpOptionDeclaration<T[K], unknown, C> };

/** The boot error naming the option: `McpModule option "limits.maxJsonDepth" must be ...`. */
export function invalidOption(at: string, problem: string): McpConfigurationError {
  return new McpConfigurationError(McpMessages.invalidOption(at, problem));
}

/** A value: `check` gets it as given (undefined when unset), throws `invalidOption` or returns what is read. */
export function option<In, Out, C = unknown>(
  check: (value: In | undefined, at: string, context: C) => Out,
): McpOptionDeclaration<In, Out, C> {
  return { resolve: check };
}

/** What a group does beyond resolving each member. */
interface GroupSettings<M, Out, C> {
  /** Refuse a value that is not an object, saying `must be an object <object>`; without it such a value reads as empty. */
  readonly object?: string;
  /** The value of the unset group, when it is not what its members' defaults make. */
  readonly absent?: NoInfer<Out>;
  /** Checks across members and shapes the result (`at` is the group's own name). */
  readonly finish?: (members: ResolvedMembers<M>, at: string, context: C) => Out;
}

/**
 * An object option: each member resolved in order under `<at>.<key>`, then `finish`. The compiler holds the
 * members to exactly the keys of `T`, so the public interface and the declaration cannot drift apart.
 * @example group<McpSessionOptions>()({ mode: oneOf(['optional', 'required', 'stateless'], 'optional'), idleTtlMs: positiveInteger(1_800_000) })
 */
export function group<T extends object, C = unknown>() {
  return <M extends MembersOf<T, C>, Out = ResolvedMembers<M>>(
    members: M & { readonly [K in Exclude<keyof M, keyof T>]: never },
    settings: GroupSettings<M, Out, C> = {},
  ): McpOptionDeclaration<T, Out, C> => ({
    members: members as McpOptionMembers<C>,
    resolve: (value, at, context) => {
      if (value === undefined && settings.absent !== undefined) return settings.absent;
      if (settings.object !== undefined && value !== undefined && (value === null || typeof value !== 'object' || Array.isArray(value)))
        throw invalidOption(at, `must be an object ${settings.object}`);
      const given = (value ?? {}) as Record<string, unknown>;
      const declared = Object.entries(members as Record<string, McpOptionDeclaration<unknown, unknown, C>>);
      const resolved = Object.fromEntries(
        declared.map(([key, member]) => [key, member.resolve(given[key], at ? `${at}.${key}` : key, context)]),
      );
      return settings.finish ? settings.finish(resolved as ResolvedMembers<M>, at, context) : (resolved as Out);
    },
  });
}

/** A list of objects resolved by `item` under `<at>[i]`; unset stays unset unless `required` (then non-empty). */
export function list<T, Out, C, R extends boolean = false>(
  item: McpOptionDeclaration<T, Out, C>,
  notArray: string,
  whole: { required?: R; check?: (items: Out[], at: string) => void } = {},
): McpOptionDeclaration<T[], R extends true ? Out[] : Out[] | undefined, C> {
  return {
    each: item.members,
    resolve: (value, at, context) => {
      if (value === undefined && !whole.required) return undefined as never;
      if (!Array.isArray(value) || (whole.required && value.length === 0)) throw invalidOption(at, notArray);
      const items = value.map((element, index) => item.resolve(element, `${at}[${index}]`, context));
      whole.check?.(items, at);
      return items;
    },
  };
}

/** `declaration` when the value is present, undefined when `isAbsent` says it is not (by default: when unset). */
export function optional<In, Out, C>(
  declaration: McpOptionDeclaration<In, Out, C>,
  isAbsent: (value: In | undefined) => boolean = (value) => value === undefined,
): McpOptionDeclaration<In, Out | undefined, C> {
  return { ...declaration, resolve: (value, at, context) => (isAbsent(value) ? undefined : declaration.resolve(value, at, context)) };
}
