// The documentation site: `npm run docs:build` (TypeDoc's API reference into docs/public/api/, then VitePress into
// docs/.vitepress/dist/). Self-contained: the default theme with its system font stack, local search, no CDN.
import { defineConfig } from 'vitepress';

const guide = [
  { text: 'Getting started', link: '/guide/getting-started' },
  { text: 'Tools and schemas', link: '/guide/tools' },
  { text: 'Dynamic and per-caller tools', link: '/guide/dynamic-tools' },
  { text: 'Tool search for large catalogs', link: '/guide/tool-search' },
  { text: 'Controller routes as tools', link: '/guide/controller-routes' },
  { text: 'OpenAPI documents as tools', link: '/guide/openapi' },
  { text: 'MCP client and gateway', link: '/guide/client-and-gateway' },
  { text: 'Results and envelopes', link: '/guide/results' },
  { text: 'Resources, prompts, completions', link: '/guide/resources-prompts' },
  { text: 'Agent Skills', link: '/guide/skills' },
  { text: 'Transports and clients', link: '/guide/transports' },
  { text: 'Security', link: '/guide/security' },
  { text: 'OAuth 2.1 with your authorization server', link: '/guide/oauth' },
  { text: 'Tenants and limits', link: '/guide/tenants-and-limits' },
  { text: 'Jobs, tasks, idempotency', link: '/guide/jobs' },
  { text: 'Scaling out', link: '/guide/scaling' },
  { text: 'Observability', link: '/guide/observability' },
  { text: 'Explorer and MCP Apps', link: '/guide/explorer-and-apps' },
  { text: 'Testing', link: '/guide/testing' },
  { text: 'Protocol revisions', link: '/guide/protocol-revisions' },
  { text: 'Performance', link: '/guide/performance' },
  { text: 'Migrating from @rekog/mcp-nest', link: '/guide/migrating-from-rekog' },
];

const reference = [
  { text: 'Options', link: '/reference/options' },
  { text: 'Errors', link: '/errors' },
  { text: 'Architecture', link: '/architecture' },
  // TypeDoc's HTML pages (docs/public/api/), outside VitePress's router: a full page load.
  { text: 'API', link: '/api/index.html', target: '_self' },
];

export default defineConfig({
  title: '@nest-mcp/core',
  description: 'MCP servers for NestJS, from decorators',
  lang: 'en',
  // The site's icon (docs/public/favicon.svg): without one, every page load asked for /favicon.ico and got a 404.
  head: [['link', { rel: 'icon', type: 'image/svg+xml', href: '/favicon.svg' }]],
  // Only the markdown of the site: the repository's other markdown (README.md, CONTRIBUTING.md) lies outside docs/.
  srcExclude: ['**/node_modules/**'],
  // The API reference is static HTML copied from public/; VitePress cannot see it as a page.
  ignoreDeadLinks: [/^\/api\//],
  lastUpdated: false,
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/getting-started' },
      { text: 'Reference', link: '/reference/options' },
      { text: 'API', link: '/api/index.html', target: '_self' },
    ],
    sidebar: [
      { text: 'Guide', items: guide },
      { text: 'Reference', items: reference },
    ],
    search: { provider: 'local' },
    outline: { level: [2, 3] },
  },
});
