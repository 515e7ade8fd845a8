import { dirname, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * What a user's compiler sees: the declarations `tsc` emits for the two faces (index.ts, testing/index.ts), built in
 * memory with the library's own options (stripInternal included). Every named type of ours they reach, through a
 * signature, a constructor parameter, an inferred type or an `import("…")` type, must be exported by a face: a type
 * reachable but not exported is one a user can receive yet never name.
 *
 * @microsoft/api-extractor is not a dependency; this is its "forgotten export" check, on the TypeScript compiler API.
 */
const here = dirname(fileURLToPath(import.meta.url));
const FACES = [join(here, 'index.ts'), join(here, 'testing', 'index.ts')];

/**
 * Reachable on purpose, named by nobody: McpModule's generated base (ConfigurableModuleBuilder's output; its statics
 * are McpModule's own, typed with exported option types) and the internal base of control-flow signals (users catch
 * the public subclass).
 */
const NAMED_BY_NOBODY = new Set(['ConfigurableModuleClass', 'McpControlFlowSignal']);

/** The declarations of the faces and all they import, emitted in memory: file name → text. */
function emitDeclarations(): { files: Map<string, string>; options: ts.CompilerOptions } {
  const configPath = join(here, '..', 'tsconfig.lib.json');
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!config) throw new Error(`cannot read ${configPath}`);
  const options: ts.CompilerOptions = {
    ...config.options,
    declaration: true,
    emitDeclarationOnly: true,
    composite: false,
    incremental: false,
    declarationMap: false,
    sourceMap: false,
  };
  const files = new Map<string, string>();
  const program = ts.createProgram({ rootNames: FACES, options });
  const result = program.emit(undefined, (fileName, text) => files.set(resolvePath(fileName), text), undefined, true);
  if (result.emitSkipped) throw new Error('declaration emit skipped');
  return { files, options };
}

/** Our named types reachable from the faces' declarations but exported by neither face, each with one path to it. */
function forgottenExports(): string[] {
  const { files, options } = emitDeclarations();
  const outDir = resolvePath(options.outDir!);
  const host = ts.createCompilerHost({ ...options, noEmit: true });
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (fileName) => files.get(resolvePath(fileName)) ?? readFile(fileName);
  host.fileExists = (fileName) => files.has(resolvePath(fileName)) || fileExists(fileName);
  const faces = ['index.d.ts', join('testing', 'index.d.ts')].map((face) => join(outDir, face));
  const program = ts.createProgram({ rootNames: faces, options: { ...options, noEmit: true }, host });
  const checker = program.getTypeChecker();
  const resolve = (symbol: ts.Symbol): ts.Symbol => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  const ours = (node: ts.Node): boolean => files.has(resolvePath(node.getSourceFile().fileName));

  const exportedTargets = new Set<ts.Symbol>();
  const roots: [string, ts.Symbol][] = [];
  for (const face of faces) {
    const source = program.getSourceFile(face);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`${face} not emitted`);
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      exportedTargets.add(resolve(symbol));
      roots.push([symbol.getName(), resolve(symbol)]);
    }
  }

  const forgotten = new Map<ts.Symbol, string>();
  const visited = new Set<ts.Symbol>();
  const reach = (symbol: ts.Symbol, where: string): void => {
    if (visited.has(symbol)) return;
    visited.add(symbol);
    for (const declaration of symbol.declarations ?? []) visit(declaration, where);
  };
  const visit = (node: ts.Node, where: string): void => {
    let name: ts.Node | undefined;
    if (ts.isTypeReferenceNode(node)) name = node.typeName;
    else if (ts.isExpressionWithTypeArguments(node)) name = node.expression;
    else if (ts.isTypeQueryNode(node)) name = node.exprName;
    else if (ts.isImportTypeNode(node)) name = node.qualifier;
    if (name) {
      const found = checker.getSymbolAtLocation(ts.isQualifiedName(name) ? name.right : name);
      const target = found && resolve(found);
      const declaration = target?.declarations?.[0];
      if (target && declaration && ours(declaration) && !(target.flags & ts.SymbolFlags.TypeParameter)) {
        if (!exportedTargets.has(target) && !NAMED_BY_NOBODY.has(target.getName()) && !forgotten.has(target)) forgotten.set(target, where);
        reach(target, `${where} → ${target.getName()}`);
      }
    }
    ts.forEachChild(node, (child) => visit(child, where));
  };
  for (const [name, symbol] of roots) reach(symbol, name);
  return [...forgotten].map(([symbol, where]) => `${symbol.getName()} (via ${where})`).sort();
}

describe('published declarations (index.d.ts, testing/index.d.ts)', () => {
  it('reach no type of ours that neither face exports', () => {
    expect(forgottenExports()).toEqual([]);
  }, 600_000);
});
