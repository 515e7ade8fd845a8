// The one table of the served protocol revisions: code that differs per revision reads a row, never compares strings.

/**
 * The protocol eras, each named by its newest revision: `2025-11-25` (2024-11-05 … 2025-11-25: `initialize`,
 * sessions) and `2026-07-28` (stateless, a `_meta` envelope on every request).
 * @publicApi
 */
export type McpEra = '2025-11-25' | '2026-07-28';

/** One served protocol revision: its era and the behaviour that differs from its neighbours. @publicApi */
export interface McpProtocolRevision {
  /** The revision string clients send (`protocolVersion`, `MCP-Protocol-Version`, the `_meta` envelope). */
  readonly version: string;
  readonly era: McpEra;
  /** A connection opens with `initialize` and, on HTTP, gets a session (`Mcp-Session-Id`); the 2026 era has neither. */
  readonly sessions: boolean;
  /** JSON-RPC batches (arrays) are answered: only 2025-03-26 (2025-06-18 removed them); elsewhere -32600. */
  readonly batches: boolean;
  /** Its HTTP transport: the HTTP+SSE pair (`GET /sse` + `POST /messages`) of 2024-11-05, or Streamable HTTP. */
  readonly httpTransport: 'http-sse' | 'streamable-http';
  /** SSE streams are primed with an event id and `retry`, so a client may poll after the server closes them. */
  readonly priming: boolean;
  /** `initialize` offers the `tasks` capability and `tools/call` honours `params.task` (the 2026 era has the tasks extension instead). */
  readonly tasks: boolean;
}

/** The served revisions, newest first. @publicApi */
export const MCP_PROTOCOL_REVISIONS = [
  {
    version: '2026-07-28',
    era: '2026-07-28',
    sessions: false,
    batches: false,
    httpTransport: 'streamable-http',
    priming: false,
    tasks: false,
  },
  {
    version: '2025-11-25',
    era: '2025-11-25',
    sessions: true,
    batches: false,
    httpTransport: 'streamable-http',
    priming: true,
    tasks: true,
  },
  {
    version: '2025-06-18',
    era: '2025-11-25',
    sessions: true,
    batches: false,
    httpTransport: 'streamable-http',
    priming: false,
    tasks: false,
  },
  {
    version: '2025-03-26',
    era: '2025-11-25',
    sessions: true,
    batches: true,
    httpTransport: 'streamable-http',
    priming: false,
    tasks: false,
  },
  { version: '2024-11-05', era: '2025-11-25', sessions: true, batches: false, httpTransport: 'http-sse', priming: false, tasks: false },
] as const satisfies readonly McpProtocolRevision[];

/** A revision `initialize` can negotiate (the 2025-11-25 era). @publicApi */
export type McpProtocolVersion = Extract<(typeof MCP_PROTOCOL_REVISIONS)[number], { era: '2025-11-25' }>['version'];

/** The revisions of one era, newest first. */
function versionsOf(era: McpEra): readonly string[] {
  return MCP_PROTOCOL_REVISIONS.filter((row) => row.era === era).map((row) => row.version);
}

/** The revisions `initialize` negotiates (the 2025-11-25 era), newest first. @publicApi */
export const SUPPORTED_PROTOCOL_VERSIONS = versionsOf('2025-11-25') as readonly McpProtocolVersion[];

/** The revisions of the 2026-07-28 era, newest first: what `server/discover` advertises and -32022 names. */
export const REV_2026_07_28_VERSIONS: readonly string[] = versionsOf('2026-07-28');

/** The newest revision `initialize` negotiates: the answer to a client whose version we do not speak. @publicApi */
export const LATEST_PROTOCOL_VERSION: McpProtocolVersion = SUPPORTED_PROTOCOL_VERSIONS[0];

/** What a Streamable HTTP server assumes when neither a header nor a session names the version (spec 2025-06-18). */
export const DEFAULT_HTTP_PROTOCOL_VERSION: McpProtocolVersion = '2025-03-26';

/** The revision HTTP+SSE clients speak until their `initialize` says otherwise. */
export const HTTP_SSE_PROTOCOL_VERSION: McpProtocolVersion = MCP_PROTOCOL_REVISIONS.find(
  (row) => row.httpTransport === 'http-sse',
)!.version;

const BY_VERSION: ReadonlyMap<string, McpProtocolRevision> = new Map(MCP_PROTOCOL_REVISIONS.map((row) => [row.version, row]));

/** The row of a served revision; undefined for any other string. */
export function protocolRevision(version: unknown): McpProtocolRevision | undefined {
  return typeof version === 'string' ? BY_VERSION.get(version) : undefined;
}

/** Whether a served revision has a behaviour of the table (false for a revision we do not serve). */
export function revisionHas(version: unknown, behaviour: 'sessions' | 'batches' | 'priming' | 'tasks'): boolean {
  return protocolRevision(version)?.[behaviour] === true;
}

/** True for a revision in {@link SUPPORTED_PROTOCOL_VERSIONS}. */
export function isSupportedProtocolVersion(version: unknown): version is McpProtocolVersion {
  return protocolRevision(version)?.era === '2025-11-25';
}

/** Whether this server serves a revision of the 2026-07-28 era (it is in {@link REV_2026_07_28_VERSIONS}). */
export function isServedRev20260728(version: unknown): boolean {
  return protocolRevision(version)?.era === '2026-07-28';
}

/** The first revision of the 2026-07-28 era: revision strings compare lexically, so anything at or above it belongs to it. */
const FIRST_REV_2026_07_28 = REV_2026_07_28_VERSIONS[REV_2026_07_28_VERSIONS.length - 1];

/** The era of a claimed revision, served or not: from the first 2026-07-28 one up (`v999.0.0` too) it is 2026-07-28. */
export function eraOfRevision(version: string): McpEra {
  return version >= FIRST_REV_2026_07_28 ? '2026-07-28' : '2025-11-25';
}

/** Lifecycle negotiation: echo a supported version, otherwise answer with our latest (never an error). */
export function negotiateProtocolVersion(requested: string): McpProtocolVersion {
  return isSupportedProtocolVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}
