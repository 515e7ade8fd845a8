/**
 * The layering of libs/mcp/src, checked by `npm run lint` (and so by `npm test`): the rooms below, bottom first. A file
 * imports its own room and the rooms below it, never one above, type-only imports counted (`tsPreCompilationDeps`).
 * The files at the top of libs/mcp/src (index.ts, mcp.module.ts, …) and testing/ are the faces, above every room.
 * `node .ci/folder-graph.mjs` prints the graph between the rooms and its cycles (none).
 * The MCP SDK is a dev dependency: only specs use it.
 */
const LIB = '^libs/mcp/src';
const SPEC = '\\.spec\\.ts$';

/** The rooms, bottom first; docs/architecture.md draws them. */
const ROOMS = [
  'core', // JSON-RPC, dispatcher, request context, the caller, revisions, errors, metadata keys, the wire shapes
  'client', // McpClient, its transports and module: the protocol with core alone
  'options', // one declaration per option group, and the shapes an option accepts (the plug-in interfaces)
  'stores', // key-value stores and the bus (memory, Redis, Cluster)
  'sessions', // sessions and the instance lease
  'auth', // credentials in (JWT, API keys, OAuth resource server, bridge) and out (outbound/)
  'jobs', // the job engine: records, store, queues, slots, turns, the one cancel
  'observability', // metrics, tracing and health over core ports, stores and the job engine
  'execution', // the one call pipeline and what it reads of a tool
  'features', // providers, transforms, tools, resources, prompts, completions, apps, tasks (worker, job tools, decorator)
  'eras', // the era router and one engine per era, with that era's task surface
  'transports', // frame bytes, hand the era router a channel
];

/** One rule per room, made from the list: it imports no room above it and no face. */
const downwardOnly = ROOMS.map((room, index) => ({
  name: `${room}-imports-downward-only`,
  comment: `${room}/ may import ${index === 0 ? 'no other room' : ROOMS.slice(0, index).join(', ')}; nothing above it`,
  severity: 'error',
  from: { path: `${LIB}/${room}/`, pathNot: SPEC },
  to: { path: [`${LIB}/(${[...ROOMS.slice(index + 1), 'testing'].join('|')})/`, `${LIB}/[^/]+\\.ts$`] },
}));

module.exports = {
  forbidden: [
    ...downwardOnly,
    {
      name: 'transports-skip-the-call',
      comment:
        'transports/ frame bytes and hand the era router a channel: never a feature, the call pipeline or observability, ' +
        'though those rooms are below them',
      severity: 'error',
      from: { path: `${LIB}/transports/`, pathNot: SPEC },
      to: { path: `${LIB}/(features|execution|observability)/` },
    },
    {
      name: 'transports-enter-eras-by-the-router',
      comment:
        'transports/ are era-blind: they hand the era router (mcp-era.router) an era-neutral channel (mcp-era.channel, ' +
        "core's mcp-channel.interface) and never reach an era's own folder (eras/rev-*), specs included; " +
        "an era's rules on HTTP headers live under eras/rev-*/http/. The spec transports/era-blind.spec.ts checks the names",
      severity: 'error',
      from: { path: `${LIB}/transports/` },
      to: { path: `${LIB}/eras/`, pathNot: `${LIB}/eras/mcp-era\\.(router|channel)\\.ts$` },
    },
    {
      name: 'an-era-lives-in-its-folder',
      comment:
        "what is one era's (rev-YYYY-MM-DD: its engine, task surface, header rules) lives under eras/; the rooms below it, " +
        "features/ among them, know no era and import none (core's revisions table and the client's own eras aside)",
      severity: 'error',
      from: { path: `${LIB}/(features|execution|observability|jobs|auth|sessions|stores|options)/` },
      to: { path: 'rev-[0-9]{4}-[0-9]{2}-[0-9]{2}' },
    },
    {
      name: 'only-the-upstreams-use-the-client',
      comment:
        'the server rooms know no client; the upstream provider (features/upstreams/) is the one that calls remote servers, ' +
        'and the public faces (index.ts, testing/: createMcpTestClient wires a client to an app in-process) export it; ' +
        "the token endpoint's grants (client/auth/oauth-grant.ts) serve the gateway's outbound credentials too",
      severity: 'error',
      from: { path: `${LIB}/`, pathNot: [SPEC, `${LIB}/client/`, `${LIB}/features/upstreams/`, `${LIB}/index\\.ts$`, `${LIB}/testing/`] },
      to: { path: `${LIB}/client/`, pathNot: `${LIB}/client/auth/oauth-grant\\.ts$` },
    },
    {
      name: 'testing-is-a-face',
      comment:
        'testing/ is the public face @nest-mcp/core/testing (like index.ts): the library never imports it, but for the boot ' +
        "error catalogue, which lists every area's boot errors (the next rule)",
      severity: 'error',
      from: { path: `${LIB}/`, pathNot: [`${LIB}/testing/`, `${LIB}/boot-error\\.catalogue\\.ts$`] },
      to: { path: `${LIB}/testing/` },
    },
    {
      name: 'the-catalogue-reads-only-the-messages-of-testing',
      comment: 'boot-error.catalogue.ts lists the boot errors of testing/ (its *.messages.ts) and nothing else of that face',
      severity: 'error',
      from: { path: `${LIB}/boot-error\\.catalogue\\.ts$` },
      to: { path: `${LIB}/testing/`, pathNot: `${LIB}/testing/[^/]+\\.messages\\.ts$` },
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
