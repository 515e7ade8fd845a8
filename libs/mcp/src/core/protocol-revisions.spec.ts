import {
  DEFAULT_HTTP_PROTOCOL_VERSION,
  eraOfRevision,
  HTTP_SSE_PROTOCOL_VERSION,
  isServedRev20260728,
  isSupportedProtocolVersion,
  LATEST_PROTOCOL_VERSION,
  MCP_PROTOCOL_REVISIONS,
  negotiateProtocolVersion,
  protocolRevision,
  REV_2026_07_28_VERSIONS,
  revisionHas,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './protocol-revisions.js';

describe('the protocol revisions table', () => {
  it('lists every served revision once, newest first, each in its era', () => {
    expect(MCP_PROTOCOL_REVISIONS.map(({ version, era }) => [version, era])).toEqual([
      ['2026-07-28', '2026-07-28'],
      ['2025-11-25', '2025-11-25'],
      ['2025-06-18', '2025-11-25'],
      ['2025-03-26', '2025-11-25'],
      ['2024-11-05', '2025-11-25'],
    ]);
  });

  it.each([
    // version, sessions, batches, priming, tasks, HTTP transport
    ['2026-07-28', false, false, false, false, 'streamable-http'],
    ['2025-11-25', true, false, true, true, 'streamable-http'],
    ['2025-06-18', true, false, false, false, 'streamable-http'],
    ['2025-03-26', true, true, false, false, 'streamable-http'],
    ['2024-11-05', true, false, false, false, 'http-sse'],
  ] as const)('%s: sessions %s, batches %s, priming %s, tasks %s, %s', (version, sessions, batches, priming, tasks, httpTransport) => {
    expect(protocolRevision(version)).toEqual({
      version,
      era: version === '2026-07-28' ? '2026-07-28' : '2025-11-25',
      sessions,
      batches,
      priming,
      tasks,
      httpTransport,
    });
    expect([
      revisionHas(version, 'sessions'),
      revisionHas(version, 'batches'),
      revisionHas(version, 'priming'),
      revisionHas(version, 'tasks'),
    ]).toEqual([sessions, batches, priming, tasks]);
  });

  it.each(['2099-01-01', '2024-10-07', '', 'latest', undefined, 20250326])(
    'a revision we do not serve (%j) has no row and no behaviour',
    (version) => {
      expect(protocolRevision(version)).toBeUndefined();
      expect(revisionHas(version, 'batches')).toBe(false);
      expect(revisionHas(version, 'priming')).toBe(false);
    },
  );

  it('derives the per-era lists and the defaults from the table', () => {
    expect([...SUPPORTED_PROTOCOL_VERSIONS]).toEqual(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
    expect([...REV_2026_07_28_VERSIONS]).toEqual(['2026-07-28']);
    expect(LATEST_PROTOCOL_VERSION).toBe('2025-11-25');
    expect(DEFAULT_HTTP_PROTOCOL_VERSION).toBe('2025-03-26');
    expect(HTTP_SSE_PROTOCOL_VERSION).toBe('2024-11-05');
  });
});

describe('protocol revision helpers', () => {
  it.each(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'])('%s is negotiated by initialize and echoed', (version) => {
    expect(isSupportedProtocolVersion(version)).toBe(true);
    expect(isServedRev20260728(version)).toBe(false);
    expect(negotiateProtocolVersion(version)).toBe(version);
  });

  it.each(['2099-01-01', '2024-10-07', '', '2025-11-25 ', 'latest', '2026-07-28'])(
    '%j is not negotiated by initialize: the answer is the latest',
    (version) => {
      expect(isSupportedProtocolVersion(version)).toBe(false);
      expect(negotiateProtocolVersion(version)).toBe('2025-11-25');
    },
  );

  it.each([undefined, null, 20251125, {}, ['2025-11-25']])('isSupportedProtocolVersion(%j) is false for non-strings', (value) => {
    expect(isSupportedProtocolVersion(value)).toBe(false);
    expect(isServedRev20260728(value)).toBe(false);
  });

  it('serves 2026-07-28 as the only revision of its era', () => {
    expect(isServedRev20260728('2026-07-28')).toBe(true);
    expect(isServedRev20260728('2026-07-29')).toBe(false);
    expect(isServedRev20260728('v999.0.0')).toBe(false);
  });

  it.each([
    ['2026-07-28', '2026-07-28'],
    ['2027-01-01', '2026-07-28'],
    ['v999.0.0', '2026-07-28'],
    ['2026-07-27', '2025-11-25'],
    ['2025-11-25', '2025-11-25'],
    ['1.0', '2025-11-25'],
    ['', '2025-11-25'],
  ])('a claim of %j belongs to the %s era (served or not)', (version, era) => {
    expect(eraOfRevision(version)).toBe(era);
  });
});
