/**
 * The MCP Server Card (SEP-2127): a static JSON document of this server's identity and endpoints, served
 * unauthenticated at `/.well-known/mcp/server-card.json` and `<path>/server-card` (cached, CORS). On by default.
 * @publicApi
 * @example serverCard: { name: 'com.example/weather', description: 'Current weather and forecasts for 70 cities' }
 */
export interface McpServerCardOptions {
  /** Serve the card (`true`); `false` answers 404 on both paths. */
  enabled?: boolean;
  /**
   * The card's `name`, reverse-DNS with one `/` (`com.example/weather`), in a namespace you own. Default: the public
   * host reversed, `/`, the module's `name` (`com.example.mcp/weather-server` for `https://mcp.example.com`).
   */
  name?: string;
  /** The card's `description`, 1 to 100 characters. Default: the module's `description` (cut to 100), else `MCP server <title or name>`. */
  description?: string;
  /** Homepage or documentation of the server: an absolute http(s) URL. */
  websiteUrl?: string;
  /** Where its source lives, so users and security reviewers can inspect it. */
  repository?: {
    /** Browsable and cloneable repository URL (absolute http(s)). */
    url: string;
    /** Hosting service, e.g. `github`. */
    source: string;
    /** Path of the server inside a monorepo. */
    subfolder?: string;
    /** The forge's stable repository id. */
    id?: string;
  };
  /** Icons a client may show: `src` is an http(s) or `data:` URI. */
  icons?: { src: string; mimeType?: string; sizes?: string[]; theme?: 'light' | 'dark' }[];
  /** `Cache-Control: public, max-age=<maxAgeSec>` (3600, as the draft suggests). */
  maxAgeSec?: number;
}
