import { REV_2026_07_28_VERSIONS } from '../../core/protocol-revisions.js';
import { probeVerdict, type McpProbeAnswer } from './era-probe.js';

/** The era a dual-era client settled on: 2026-07-28 at `version` (`discover` is the DiscoverResult), or legacy. */
export type McpNegotiatedEra =
  | { readonly kind: 'modern'; readonly version: string; readonly discover: Record<string, unknown> }
  | { readonly kind: 'legacy'; readonly reason: string };

/**
 * Probes `server/discover` at the newest 2026-07-28-era revision, and once more at the revision a -32022 names
 * (the same one included: bounded at two probes);
 * throws the verdict's McpClientError when the answer allows no fallback (HTTP: 401/403, 5xx, network failure).
 */
export async function negotiateEra(
  probe: (version: string) => Promise<McpProbeAnswer>,
  connection: 'http' | 'process',
): Promise<McpNegotiatedEra> {
  let version = REV_2026_07_28_VERSIONS[0];
  for (let attempt = 0; attempt < 2; attempt++) {
    const verdict = probeVerdict(await probe(version), connection);
    switch (verdict.kind) {
      case 'modern':
        return { kind: 'modern', version: verdict.version, discover: verdict.result };
      case 'legacy':
        return verdict;
      case 'error':
        throw verdict.error;
      case 'retry':
        // Even at the same revision: a server may refuse a first request (SEP-2575 has clients retry once).
        version = verdict.version;
    }
  }
  return { kind: 'legacy', reason: `server/discover refused ${version} twice` };
}
