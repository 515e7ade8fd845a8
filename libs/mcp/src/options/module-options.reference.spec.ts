import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MCP_ENDPOINT_OPTIONS } from './declarations/endpoint.options.js';
import { MCP_MODULE_OPTIONS } from './declarations/module.options.js';
import type { McpOptionMembers } from './option.builder.js';

/**
 * The options reference's "Module options" table (docs/reference/options.md) against the declarations: every key it names exists, and every key
 * exists in it, either in a row of its own, or through its group's row (whose `{ ... }`, when it shows one, lists
 * exactly the group's keys), or through rows for each of its group's keys.
 */
const here = dirname(fileURLToPath(import.meta.url));
const DECLARED: McpOptionMembers<never> = { ...MCP_MODULE_OPTIONS.members, ...MCP_ENDPOINT_OPTIONS.members };

interface Row {
  readonly names: string[];
  readonly meaning: string;
}

/** The table's rows: `sessions.mode` and, after a dotted name, `maxEventsPerStream` meaning `http.streams.maxEventsPerStream`. */
function tableRows(readme: string): Row[] {
  const section = readme.split('\n## Module options\n')[1]?.split('\n## ')[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [, first, , ...meaning] = line.split('|');
      const tokens = [...first.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
      const parent = tokens[0].includes('.') ? tokens[0].slice(0, tokens[0].lastIndexOf('.') + 1) : '';
      return { names: tokens.map((token) => (token.includes('.') ? token : parent + token)), meaning: meaning.join('|') };
    });
}

/** The top-level keys of each `{ ... }` in a row's meaning: `{ cluster: { nodes, options? }, keyPrefix? }` → cluster, keyPrefix. */
function braceKeys(meaning: string): Set<string> | undefined {
  const shapes = [...meaning.matchAll(/`(\{[^`]*\})`/g)].map((match) => match[1]);
  if (shapes.length === 0) return undefined;
  const keys = new Set<string>();
  for (const shape of shapes) {
    let depth = 0;
    for (const match of shape.matchAll(/[{}]|([A-Za-z]+)\??\s*(?=[:,}])/g)) {
      if (match[0] === '{') depth++;
      else if (match[0] === '}') depth--;
      else if (depth === 1) keys.add(match[1]);
    }
  }
  return keys;
}

function membersAt(path: string): McpOptionMembers<never> | undefined | null {
  let members: McpOptionMembers<never> | undefined = DECLARED;
  let declaration;
  for (const key of path.split('.')) {
    declaration = members && Object.hasOwn(members, key) ? members[key] : undefined;
    if (!declaration) return null;
    members = declaration.members;
  }
  return members;
}

/** What the table gets wrong: names it lists that are not options, and options it misses. */
function readmeTableProblems(readme: string): string[] {
  const rows = tableRows(readme);
  const named = new Map(rows.flatMap((row) => row.names.map((name) => [name, row] as const)));
  const problems = [...named.keys()].filter((name) => membersAt(name) === null).map((name) => `lists ${name}, which is no option`);
  const check = (path: string, members: McpOptionMembers<never> | undefined): void => {
    const row = named.get(path);
    const keys = row && braceKeys(row.meaning);
    if (row && members && keys) {
      const declared = Object.keys(members);
      for (const key of declared) if (!keys.has(key)) problems.push(`row ${path} misses ${path}.${key} in its { ... }`);
      for (const key of keys) if (!declared.includes(key)) problems.push(`row ${path} lists ${path}.${key}, which is no option`);
    }
    if (row) return;
    if (!members || ![...named.keys()].some((name) => name.startsWith(`${path}.`))) problems.push(`misses ${path}`);
    else for (const [key, member] of Object.entries(members)) check(`${path}.${key}`, member.members);
  };
  for (const [key, declaration] of Object.entries(DECLARED)) check(key, declaration.members);
  return problems;
}

describe('docs/reference/options.md "Module options" table', () => {
  const readme = readFileSync(join(here, '..', '..', '..', '..', 'docs', 'reference', 'options.md'), 'utf8');

  it('names every option and no other', () => {
    expect(readmeTableProblems(readme)).toEqual([]);
  });

  it('fails on a key that does not exist and on a missing one', () => {
    const broken = readme
      .replace('| `tools.hideGuarded` |', '| `tools.hideGuardd` |')
      .replace('`{ enabled, path, registry, tenantLabel }`', '`{ enabled, path, tenantLabel }`')
      .replace(/\n\| `sessions\.idleTtlMs` \|[^\n]*/, '');
    expect(readmeTableProblems(broken)).toEqual([
      'lists tools.hideGuardd, which is no option',
      'misses tools.hideGuarded',
      'misses sessions.idleTtlMs',
      'row observability.metrics misses observability.metrics.registry in its { ... }',
    ]);
  });
});
