import {
  DEFAULT_HTTP_PROTOCOL_VERSION,
  isAtLeast,
  isSupportedProtocolVersion,
  LATEST_PROTOCOL_VERSION,
  negotiateProtocolVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './protocol-versions.js';

describe('protocol versions', () => {
  it('lists the supported revisions newest first', () => {
    expect([...SUPPORTED_PROTOCOL_VERSIONS]).toEqual(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
  });

  it('the latest is 2025-11-25 and the HTTP default is 2025-03-26', () => {
    expect(LATEST_PROTOCOL_VERSION).toBe('2025-11-25');
    expect(DEFAULT_HTTP_PROTOCOL_VERSION).toBe('2025-03-26');
  });

  it.each(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'])('%s is supported and echoed by negotiation', (version) => {
    expect(isSupportedProtocolVersion(version)).toBe(true);
    expect(negotiateProtocolVersion(version)).toBe(version);
  });

  it.each(['2099-01-01', '2024-10-07', '', '2025-11-25 ', 'latest'])('%j is not supported and negotiates to the latest', (version) => {
    expect(isSupportedProtocolVersion(version)).toBe(false);
    expect(negotiateProtocolVersion(version)).toBe('2025-11-25');
  });

  it.each([undefined, null, 20251125, {}, ['2025-11-25']])('isSupportedProtocolVersion(%j) is false for non-strings', (value) => {
    expect(isSupportedProtocolVersion(value)).toBe(false);
  });

  it('isAtLeast compares revisions as dates', () => {
    expect(isAtLeast('2025-11-25', '2025-06-18')).toBe(true);
    expect(isAtLeast('2025-06-18', '2025-06-18')).toBe(true);
    expect(isAtLeast('2025-03-26', '2025-06-18')).toBe(false);
    expect(isAtLeast('2024-11-05', '2025-03-26')).toBe(false);
  });
});
