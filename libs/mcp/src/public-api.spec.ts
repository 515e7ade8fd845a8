import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The public face of @nest-mcp/core, name by name. A change here is an API change: add a name only when users
 * need it, and never a concrete store/bus class, an internal signal or the dispatcher.
 */
const APPROVED_EXPORTS = [
  // Module and options
  'McpModule',
  'McpModuleOptions',
  'McpModuleExtras',
  'McpModuleForRootOptions',
  'McpModuleAsyncOptions',
  'McpHttpOptions',
  'McpToolsOptions',
  'McpSourcesOptions',
  'McpListsOptions',
  'McpObservabilityOptions',
  'McpSessionOptions',
  'McpStreamOptions',
  'McpJobOptions',
  'McpShutdownOptions',
  'McpLimitOptions',
  'McpIdempotencyOptions',
  'McpRedisOptions',
  'McpRedisClusterOptions',
  'McpRedisClusterNode',
  'McpInstanceLeaseOptions',
  'McpRequestStateOptions',
  'McpListChangedOptions',
  'McpToolSearchOptions',
  'McpExplorerOptions',
  'McpServerCardOptions',
  'McpMetricsOptions',
  'McpMetricsRegistry',
  'McpAuthOptions',
  'McpJwtOptions',
  'McpOAuthOptions',
  'McpOAuthIntrospectionOptions',
  'McpOAuthBridgeOptions',
  'McpOAuthBridgeUpstreamOptions',
  'McpOAuthBridgeScopes',
  'McpOAuthBridgeScopeMapping',
  'McpApiKey',
  'McpResourceMetadataOptions',
  'McpStdioOptions',
  // Decorators and their options
  'McpTool',
  'McpToolOptions',
  'McpToolAnnotations',
  'McpOutputType',
  'McpStandardSchema',
  'McpRoute',
  'McpExcludeRoute',
  'McpRouteOptions',
  'McpOpenApiSource',
  'McpOpenApiSelection',
  'McpOpenApiCaller',
  'McpArgs',
  'McpContext',
  'McpPrincipalParam',
  'McpTenant',
  'McpProperty',
  'McpPropertyOptions',
  'McpDto',
  'McpDtoOptions',
  'McpResource',
  'McpResourceTemplate',
  'McpResourceParams',
  'McpResourceOptions',
  'McpResourceTemplateOptions',
  'McpUiResource',
  'MCP_UI_EXTENSION',
  'MCP_UI_MIME_TYPE',
  'McpToolUiOptions',
  'McpUiToolVisibility',
  'McpUiResourceOptions',
  'McpUiResourceCsp',
  'McpUiResourcePermissions',
  'McpPrompt',
  'McpPromptOptions',
  'McpPromptArgument',
  'McpCompletion',
  'McpCompletionOptions',
  'McpCompletionRef',
  'McpTaskSupport',
  'McpTaskSupportOptions',
  'MCP_TOOL_NAME_PATTERN',
  'normalizeToolName',
  // Context types handlers receive
  'McpToolContext',
  'McpLogLevel',
  'McpClientRequestOptions',
  'McpSamplingRequest',
  'McpSamplingResult',
  'McpElicitationRequest',
  'McpElicitationResult',
  'McpPrincipal',
  'McpHandlerContext',
  'McpResourceContext',
  'McpPromptContext',
  'McpCompletionContext',
  'McpExecutionContext',
  'McpHealthIndicator',
  'McpHealthIndicatorResult',
  'McpHealthPartStatus',
  'McpHealthCheckOptions',
  'McpToolDescriptor',
  'McpToolRegistry',
  'McpToolRegistration',
  'McpToolHandle',
  'McpToolFilter',
  'McpToolVisibleTo',
  'renameTool',
  'describeTool',
  'hideArguments',
  'renameArguments',
  'namespaceTools',
  'McpToolTransformation',
  'McpToolSelection',
  'McpToolSelector',
  'McpToolProviderClass',
  'McpResourceRegistry',
  'McpResourceRegistration',
  'McpFixedResourceRegistration',
  'McpResourceTemplateRegistration',
  'McpResourceHandlerFunction',
  'McpResourceHandle',
  'McpPromptRegistry',
  'McpPromptRegistration',
  'McpPromptHandle',
  'McpTracingOptions',
  // Results
  'McpResult',
  'McpContent',
  'McpRawResult',
  'McpEnvelopeResult',
  'McpEnvelope',
  'McpSuccessEnvelope',
  'McpErrorEnvelope',
  'McpPendingEnvelope',
  'McpErrorBody',
  'McpCallToolResult',
  'McpContentBlock',
  'McpContentAnnotations',
  'McpResourceLink',
  'McpResourceContents',
  'McpReadResourceResult',
  'McpResourceValue',
  'McpPromptMessage',
  'McpPromptMessageInput',
  'McpGetPromptResult',
  'McpPromptValue',
  'McpCompletionValue',
  'JsonSchema',
  'JsonRpcId',
  // Errors and the catalogue
  'McpConfigurationError',
  'McpBootErrorCode',
  'McpBootErrorDetail',
  'McpToolError',
  'McpToolErrorOptions',
  'MCP_ERROR_CODES',
  'McpBuiltInErrorCode',
  'McpErrorCodeSpec',
  'McpAuthError',
  'McpAuthErrorCode',
  'McpStoreUnavailableError',
  'McpQuotaExceededError',
  'McpMissingClientCapabilitySignal',
  // Protocol revisions
  'SUPPORTED_PROTOCOL_VERSIONS',
  'LATEST_PROTOCOL_VERSION',
  'McpProtocolVersion',
  'MCP_PROTOCOL_REVISIONS',
  'McpProtocolRevision',
  'McpEra',
  // Agent Skills (SEP-2640)
  'McpSkillRegistry',
  'McpSkillHandle',
  'McpSkillProvider',
  'McpSkillSource',
  'McpSkillDefinition',
  'McpSkillEntry',
  'McpSkillResourceEntry',
  'McpSkillCaller',
  'MCP_SKILLS_EXTENSION',
  'MCP_SKILL_URI_SCHEME',
  'MCP_SKILL_LIMITS',
  // Services users inject
  'McpResourceNotifier',
  'McpListChangedNotifier',
  'McpClientInput',
  'withMcpInputKey',
  // Authentication
  'McpAuthenticator',
  'McpCredentials',
  // stdio
  'serveMcpOverStdio',
  'McpStderrLogger',
  // The MCP client
  'McpClient',
  'McpClientModule',
  'McpClientError',
  'McpClientErrorCode',
  'McpClientCallOptions',
  'McpClientCommonOptions',
  'McpClientHeaders',
  'McpClientHttpOptions',
  'McpClientOptions',
  'McpClientProtocol',
  'McpClientReconnectOptions',
  'McpClientStdioOptions',
  'McpClientOAuthOptions',
  'McpClientAuthorizationCodeGrant',
  'McpClientClientCredentialsGrant',
  'McpClientPreRegistration',
  'McpClientTokenStore',
  'McpClientState',
  'McpRemotePrompt',
  'McpRemoteResource',
  'McpRemoteResourceTemplate',
  'McpRemoteTool',
  'McpRemoteToolResult',
  'McpRemoteSkill',
  'McpRemoteSkillResource',
  'McpSkillFile',
  'McpSkillVerificationError',
  'McpSkillVerificationReason',
  'McpServerNotification',
  'McpServerSummary',
  // Upstream servers
  'McpUpstreamOptions',
  'McpUpstreamCaller',
  'McpOutboundAuth',
  'McpOAuthClientOptions',
  'McpUserAuthorizationOptions',
  'McpUpstreamUserConfirmation',
  'McpUpstreamsHealthIndicator',
  'McpUpstreamHealth',
  'McpUpstreamsHealthOptions',
].sort();

/**
 * Base classes a public class extends that users never write: McpModule's, generated by ConfigurableModuleBuilder
 * (its statics are McpModule's own, typed with exported option types), and the internal base of control-flow
 * signals (users catch the public subclass, never the base).
 */
const NAMED_BY_NOBODY = new Set(['ConfigurableModuleClass', 'McpControlFlowSignal']);

const here = dirname(fileURLToPath(import.meta.url));
const indexPath = join(here, 'index.ts');
const testingPath = join(here, 'testing', 'index.ts');

let program: ts.Program;
let checker: ts.TypeChecker;
let exported: Map<string, ts.Symbol>;

beforeAll(() => {
  const configPath = join(here, '..', 'tsconfig.lib.json');
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!config) throw new Error(`cannot read ${configPath}`);
  program = ts.createProgram({
    rootNames: [indexPath, testingPath],
    options: { ...config.options, noEmit: true, composite: false, incremental: false },
  });
  checker = program.getTypeChecker();
  const source = program.getSourceFile(indexPath);
  if (!source) throw new Error('index.ts not in the program');
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error('index.ts has no module symbol');
  exported = new Map(checker.getExportsOfModule(moduleSymbol).map((symbol) => [symbol.getName(), symbol]));
}, 60_000);

/** The names a face exports, each with the file that declares it. */
function declaredIn(path: string): [string, string][] {
  const face = checker.getSymbolAtLocation(program.getSourceFile(path)!)!;
  return checker
    .getExportsOfModule(face)
    .flatMap((symbol) => (resolve(symbol).declarations ?? []).map((d): [string, string] => [symbol.getName(), d.getSourceFile().fileName]));
}

function resolve(symbol: ts.Symbol): ts.Symbol {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/** Our own named types (declared in libs/mcp/src) that a public declaration mentions, with where. */
function referencedOwnTypes(): Map<ts.Symbol, string> {
  const found = new Map<ts.Symbol, string>();
  const seen = new Set<ts.Node>();
  const visit = (node: ts.Node, where: string): void => {
    if (seen.has(node)) return;
    seen.add(node);
    // Private and protected members, and function bodies, are not part of the public face.
    if (
      ts.canHaveModifiers(node) &&
      ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword)
    )
      return;
    if ((ts.isClassElement(node) || ts.isTypeElement(node)) && node.name && ts.isPrivateIdentifier(node.name)) return;
    if (ts.isBlock(node)) return;
    // `@internal` members are stripped from the declarations (stripInternal): not public.
    if (ts.getJSDocTags(node).some((tag) => tag.tagName.text === 'internal')) return;
    if (ts.isPropertyDeclaration(node) && !node.type) return; // initialiser-typed fields: checked through their value's type below
    if (ts.isTypeReferenceNode(node) || ts.isExpressionWithTypeArguments(node) || ts.isTypeQueryNode(node)) {
      const name = ts.isTypeReferenceNode(node) ? node.typeName : ts.isTypeQueryNode(node) ? node.exprName : node.expression;
      const symbol = checker.getSymbolAtLocation(name);
      if (symbol) {
        const target = resolve(symbol);
        const declaration = target.declarations?.[0];
        if (
          declaration &&
          !declaration.getSourceFile().isDeclarationFile &&
          declaration.getSourceFile().fileName.includes('/libs/mcp/src/')
        ) {
          if (!(target.flags & ts.SymbolFlags.TypeParameter) && !found.has(target)) {
            found.set(target, where);
            for (const decl of target.declarations ?? []) visit(decl, `${where} → ${target.getName()}`);
          }
        }
      }
    }
    ts.forEachChild(node, (child) => visit(child, where));
  };
  for (const [name, symbol] of exported) {
    for (const declaration of resolve(symbol).declarations ?? []) {
      // An untyped const is public through its signature when it is a function (decorators), else through
      // nothing we can name (e.g. `MCP_ERROR_CODES`, whose inferred type is spelled out in its declaration).
      if (ts.isVariableDeclaration(declaration) && !declaration.type) {
        const value = declaration.initializer;
        if (value && (ts.isArrowFunction(value) || ts.isFunctionExpression(value))) {
          for (const part of [...value.parameters, ...(value.typeParameters ?? []), ...(value.type ? [value.type] : [])]) visit(part, name);
        }
        continue;
      }
      visit(declaration, name);
    }
  }
  return found;
}

describe('public API (index.ts)', () => {
  it('exports exactly the approved names', () => {
    expect([...exported.keys()].sort()).toEqual(APPROVED_EXPORTS);
  });

  it('exports no store or bus, no raw token, no dispatcher and no internal control-flow signal', () => {
    for (const name of [
      'MCP_STORE',
      'McpKeyValueStore',
      'MCP_BUS',
      'McpMessageBus',
      'MCP_MODULE_OPTIONS',
      'MCP_RESOLVED_OPTIONS',
      'MCP_CLIENT_OPTIONS',
      'McpMemoryStore',
      'McpRedisStore',
      'McpMemoryBus',
      'McpRedisBus',
      'McpDispatcher',
      'McpInputRequiredSignal',
      'McpControlFlowSignal',
    ]) {
      expect(exported.has(name)).toBe(false);
    }
  });

  it('exports nothing defined inside an era (index.ts and testing): a public name lives where its meaning does', () => {
    const eras = join(here, 'eras') + '/';
    const fromEras = [indexPath, testingPath].flatMap((face) =>
      declaredIn(face)
        .filter(([, file]) => file.startsWith(eras))
        .map(([name, file]) => `${name} (${file.slice(here.length + 1)})`),
    );
    expect(fromEras).toEqual([]);
  });

  it("keeps McpToolRegistry's internals out of its declarations (@internal: stripInternal drops them)", () => {
    const registry = resolve(exported.get('McpToolRegistry')!).declarations![0] as ts.ClassDeclaration;
    const internal = registry.members
      .filter((member) => ts.getJSDocTags(member).some((tag) => tag.tagName.text === 'internal'))
      .map((member) => member.name?.getText());
    for (const name of ['hasJobs', 'listsPerCaller', 'visibleDescriptors'])
      if (registry.members.some((member) => member.name?.getText() === name)) expect(internal).toContain(name);
  });

  it('exports every type of its own that a public signature mentions', () => {
    const exportedTargets = new Set([...exported.values()].map(resolve));
    const missing = [...referencedOwnTypes()]
      .filter(([symbol]) => !exportedTargets.has(symbol) && !NAMED_BY_NOBODY.has(symbol.getName()))
      .map(([symbol, where]) => `${symbol.getName()} (via ${where})`);
    expect(missing).toEqual([]);
  });
});
