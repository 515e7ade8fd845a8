import { routeMessage } from '../../eras/era-claim.js';
import { META } from '../../core/rev-2026-07-28.constants.js';
import { classifyStdioMessage } from './stdio-era.classifier.js';

const claimed = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/list',
  params: { _meta: { [META.protocolVersion]: '2026-07-28', [META.clientCapabilities]: {} } },
};

describe('the stdio era classifier', () => {
  it('names the pinned era as the channel revision, and no headers', () => {
    expect(classifyStdioMessage(claimed, undefined)).toEqual({ message: claimed, channelRevision: undefined, pinned: false });
    expect(classifyStdioMessage(claimed, '2025-11-25')).toEqual({ message: claimed, channelRevision: '2025-11-25', pinned: true });
  });

  it('feeds the router: a claim opens 2026-07-28 unless the connection is pinned to 2025-11-25', () => {
    expect(routeMessage(classifyStdioMessage(claimed, undefined))).toMatchObject({ era: '2026-07-28', kind: 'request', pins: true });
    expect(routeMessage(classifyStdioMessage(claimed, '2026-07-28'))).toMatchObject({ era: '2026-07-28', kind: 'request' });
    expect(routeMessage(classifyStdioMessage(claimed, '2025-11-25')).era).toBe('2025-11-25');
  });
});
