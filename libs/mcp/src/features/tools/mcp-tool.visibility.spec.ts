import { McpToolRegistry } from '../../index.js';
import type { McpPrincipal } from '../../core/mcp-principal.interface.js';
import { bootMcp, closeMcpApps, dispatch, HTTP_CONTEXT } from '../../../../../test/kit/boot-mcp.js';

type Page = { tools: { name: string }[]; nextCursor?: string };

const principal = (tenant: string, scopes: string[] = []): McpPrincipal => ({ subject: tenant, tenant, scopes, claims: {} });

async function listPage(app: Awaited<ReturnType<typeof bootMcp>>, who: McpPrincipal | undefined, cursor?: string): Promise<Page> {
  const response = await dispatch(app, 'tools/list', cursor === undefined ? {} : { cursor }, {
    context: { ...HTTP_CONTEXT, principal: who },
  });
  return (response as unknown as { result: Page }).result;
}

async function walk(app: Awaited<ReturnType<typeof bootMcp>>, who: McpPrincipal | undefined): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | undefined;
  do {
    const page = await listPage(app, who, cursor);
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return pages;
}

const names = (pages: Page[]) => pages.flatMap((page) => page.tools.map((tool) => tool.name));

describe('tools/list pages per caller (McpToolVisibility.visiblePage)', () => {
  afterEach(closeMcpApps);

  /** 25 tools, pages of 4: tool i is hidden from tenant "a" when i % 3 === 0, and requires scope "x" when i % 5 === 0. */
  async function catalog() {
    const app = await bootMcp([], { options: { lists: { pageSize: 4, listChanged: { tools: true } } } });
    const probes: string[] = [];
    const registry = app.get(McpToolRegistry);
    for (let i = 0; i < 25; i++) {
      registry.register({
        name: `t${i}`,
        description: `Tool ${i}`,
        handler: () => i,
        ...(i % 5 === 0 && { scopes: ['x'] }),
        visibleTo: (who) => {
          probes.push(`t${i}`);
          return !(who?.tenant === 'a' && i % 3 === 0);
        },
      });
    }
    return { app, probes };
  }

  const expected = (keep: (i: number) => boolean) =>
    Array.from({ length: 25 }, (_, i) => i)
      .filter(keep)
      .map((i) => `t${i}`);

  it('walks every visible tool once, in registration order, in full pages, for each kind of caller', async () => {
    const { app } = await catalog();
    const cases: [McpPrincipal | undefined, (i: number) => boolean][] = [
      [undefined, () => true],
      [principal('b', ['x']), () => true],
      [principal('b'), (i) => i % 5 !== 0],
      [principal('a', ['x']), (i) => i % 3 !== 0],
      [principal('a'), (i) => i % 3 !== 0 && i % 5 !== 0],
    ];
    for (const [who, keep] of cases) {
      const pages = await walk(app, who);
      expect(names(pages)).toEqual(expected(keep));
      for (const page of pages.slice(0, -1)) expect(page.tools).toHaveLength(4);
      expect(pages.at(-1)!.tools.length).toBeGreaterThan(0);
    }
  });

  it("runs the per-caller rules of a page's own tools and one more, never the whole catalog's", async () => {
    const { app, probes } = await catalog();
    probes.length = 0;
    const first = await listPage(app, principal('a', ['x']));
    expect(first.tools.map((tool) => tool.name)).toEqual(['t1', 't2', 't4', 't5']);
    // t0..t5 for the page, t6 (hidden) and t7 to know that a next page exists.
    expect(probes).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7']);
    probes.length = 0;
    const second = await listPage(app, principal('a', ['x']), first.nextCursor);
    expect(second.tools.map((tool) => tool.name)).toEqual(['t7', 't8', 't10', 't11']);
    expect(probes.length).toBeLessThanOrEqual(8);
  });

  it('gives no cursor when only hidden tools follow the page', async () => {
    const app = await bootMcp([], { options: { lists: { pageSize: 2, listChanged: { tools: true } } } });
    const registry = app.get(McpToolRegistry);
    for (const [name, hidden] of [
      ['one', false],
      ['two', false],
      ['three', true],
      ['four', true],
    ] as const) {
      registry.register({ name, description: name, handler: () => name, visibleTo: () => !hidden });
    }
    expect(await listPage(app, principal('a'))).toEqual({
      tools: [expect.objectContaining({ name: 'one' }), expect.objectContaining({ name: 'two' })],
    });
  });

  it('keeps a cursor valid across callers and refuses one it did not issue', async () => {
    const { app } = await catalog();
    const first = await listPage(app, undefined);
    expect(first.nextCursor).toBeDefined();
    const again = await listPage(app, undefined);
    expect(again.nextCursor).toBe(first.nextCursor);
    const response = await dispatch(app, 'tools/list', { cursor: 'bm9wZQ' });
    expect((response as { error?: { code: number } }).error?.code).toBe(-32602);
  });
});
