/**
 * The layering of libs/mcp/src, checked by `npm run lint` (and so by `npm test`). Arrows point down this list and
 * never back: core → (nothing of ours but options types); options → core; eras → features → execution → core; transports → the era
 * router, engine entries and core; auth, sessions, stores and the job engine (tasks/engine) → core (transport-free).
 * The MCP SDK is a dev dependency: only specs use it.
 */
const LIB = '^libs/mcp/src';
const SPEC = '\\.spec\\.ts$';

/** A rule that `from` may not import any of `to` (folders of libs/mcp/src). */
const forbid = (name, comment, from, to) => ({
  name,
  comment,
  severity: 'error',
  from: { path: `${LIB}/(${from})/`, pathNot: SPEC },
  to: { path: `${LIB}/(${to.join('|')})/` },
});

module.exports = {
  forbidden: [
    forbid(
      'core-is-pure',
      'core/ (JSON-RPC, dispatcher, context, revisions, errors) imports no feature, era, transport, store, task or service',
      'core',
      ['eras', 'features', 'execution', 'transports', 'auth', 'sessions', 'stores', 'tasks', 'observability'],
    ),
    forbid('eras-above-no-transport', 'eras/ shape messages for a revision; transports call them, never the reverse', 'eras', [
      'transports',
    ]),
    forbid(
      'transports-frame-bytes',
      'transports/ frame bytes and hand the era router a channel: they import core, eras (the entries below), their own rooms, ' +
        'and the transport-free services they cannot avoid: auth/ (the principal, the 401/403 challenges), sessions/ (GET streams, ' +
        'DELETE, the HTTP+SSE stream session), stores/ (under the stream hub and event store), tasks/ (the job poll URL), options/ ' +
        '(resolved settings, the global prefix). Never a feature, the call pipeline or observability',
      'transports',
      ['features', 'execution', 'observability'],
    ),
    {
      name: 'transports-enter-eras-by-the-router',
      comment:
        'transports/ reach an era through the router (mcp-era.router, era-router types) or an engine entry (rev-*/rev-*.engine); ' +
        'unavoidable: HTTP reads the 2026-07-28 optional-whitespace rule to classify a POST (header-values; the ' +
        "header names are core's), and writes a listen to its SSE stream (the ListenSink type)",
      severity: 'error',
      from: { path: `${LIB}/transports/`, pathNot: SPEC },
      to: {
        path: `${LIB}/eras/`,
        pathNot: [
          `${LIB}/eras/(era-router|mcp-era\\.router)\\.ts$`,
          `${LIB}/eras/rev-[^/]+/rev-[^/]+\\.engine\\.ts$`,
          `${LIB}/eras/rev-2026-07-28/(header-values|subscriptions/listen\\.service)\\.ts$`,
        ],
      },
    },
    forbid('features-know-no-era-or-transport', 'features/ serve every era and transport alike', 'features', ['eras', 'transports']),
    forbid(
      'execution-imports-no-feature',
      'the walk goes transport → era → feature → pipeline → method and never back: the handlers of features/ call the ' +
        'pipeline, so execution/ owns what it reads of a tool (McpCallableTool, the validation compilers) and imports no feature',
      'execution',
      ['eras', 'transports', 'features'],
    ),
    {
      name: 'services-are-transport-free',
      comment: 'auth/, sessions/, stores/ and tasks/ know no transport or era (tasks/rev-2026-07-28/: see the next rule)',
      severity: 'error',
      from: { path: `${LIB}/(auth|sessions|stores|tasks)/`, pathNot: [SPEC, `${LIB}/tasks/rev-2026-07-28/`] },
      to: { path: `${LIB}/(transports|eras)/` },
    },
    {
      name: 'an-era-task-surface-reads-only-its-era-vocabulary',
      comment:
        "tasks/rev-2026-07-28/ maps the job engine to its era's wire: it reads that era's vocabulary (envelope, refusals, input rounds), never its engine, another era or a transport",
      severity: 'error',
      from: { path: `${LIB}/tasks/rev-2026-07-28/`, pathNot: SPEC },
      to: {
        path: [
          `${LIB}/transports/`,
          `${LIB}/eras/(?!rev-2026-07-28/)`,
          `${LIB}/eras/rev-2026-07-28/rev-2026-07-28\\.(server|providers)\\.ts$`,
        ],
      },
    },
    forbid(
      'sessions-and-the-job-engine-know-no-feature',
      'sessions/ and the job engine (tasks/engine/) run no tool themselves',
      'sessions|tasks/engine',
      ['features', 'execution'],
    ),
    {
      name: 'options-import-nothing-above-them',
      comment:
        'options/ (declarations, defaults, the resolver) sit just above core: every room reads its settings from them, so they ' +
        'import no code above them. Only types cross up: an option is a slot for a plug-in whose interface its room owns ' +
        '(an McpAuthenticator, an McpToolFilter, the auth option shapes)',
      severity: 'error',
      from: { path: `${LIB}/options/`, pathNot: SPEC },
      to: {
        path: `${LIB}/(eras|features|execution|transports|auth|sessions|stores|tasks|observability)/`,
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'the-job-engine-is-the-floor-of-tasks',
      comment: "tasks/engine/ knows no era's task surface, nor the worker that runs tools above it",
      severity: 'error',
      from: { path: `${LIB}/tasks/engine/`, pathNot: SPEC },
      to: { path: `${LIB}/tasks/(?!engine/)` },
    },
    forbid('stores-are-a-floor', 'stores/ hold bytes; they know no feature, execution or service above them', 'stores', [
      'features',
      'execution',
      'auth',
      'sessions',
      'tasks',
    ]),
    forbid(
      'observability-reads-core-stores-jobs',
      'observability/ (metrics, health, traces) implements core ports over core, stores and job engine interfaces; it knows no transport, era, feature or pipeline',
      'observability',
      ['eras', 'transports', 'features', 'execution', 'auth', 'sessions'],
    ),
    {
      name: 'the-client-stands-on-core',
      comment: 'client/ (McpClient, its transports and module) speaks the protocol with core/ alone: no server room',
      severity: 'error',
      from: { path: `${LIB}/client/`, pathNot: SPEC },
      to: { path: `${LIB}/(?!core/|client/)[^/]+/` },
    },
    {
      name: 'only-the-upstreams-use-the-client',
      comment:
        'the server rooms know no client; the upstream provider (features/upstreams/) is the one that calls remote servers, ' +
        'and the public faces (index.ts, testing/: createMcpTestClient wires a client to an app in-process) export it',
      severity: 'error',
      from: { path: `${LIB}/`, pathNot: [SPEC, `${LIB}/client/`, `${LIB}/features/upstreams/`, `${LIB}/index\\.ts$`, `${LIB}/testing/`] },
      to: { path: `${LIB}/client/` },
    },
    {
      name: 'testing-is-a-face',
      comment: 'testing/ is the public face @nest-mcp/core/testing (like index.ts): the library never imports it',
      severity: 'error',
      from: { path: `${LIB}/`, pathNot: `${LIB}/testing/` },
      to: { path: `${LIB}/testing/` },
    },
    {
      name: 'library-imports-no-app-or-test',
      comment: 'code that ships (testing/ included) needs no app, test or bench',
      severity: 'error',
      from: { path: `${LIB}/`, pathNot: SPEC },
      to: { path: '^(apps|test|bench)/' },
    },
    {
      name: 'specs-share-the-one-test-kit',
      comment: 'a unit spec beside the code may use the one shared test kit (test/kit/), never an app, an e2e spec or a bench',
      severity: 'error',
      from: { path: SPEC },
      to: { path: '^(apps/|bench/|test/(?!kit/))' },
    },
    {
      name: 'sdk-is-a-dev-dependency',
      comment: 'We own the protocol: the MCP SDK is only the client our tests drive',
      severity: 'error',
      from: { path: `${LIB}/`, pathNot: SPEC },
      to: { path: 'node_modules/@modelcontextprotocol/' },
    },
    {
      name: 'no-circular',
      comment: 'A cycle between library files makes the layering a matter of luck',
      severity: 'error',
      from: { path: `${LIB}/` },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
