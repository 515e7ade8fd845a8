import { McpTokenVault } from './token-vault.js';
import { recordingTokenStore } from '../../../../../test/kit/recording-token-store.js';

describe('McpTokenVault', () => {
  it('seals values with the key: the store holds no token, and another key reads nothing', async () => {
    const store = recordingTokenStore();
    const vault = new McpTokenVault(store, 'key one');
    await vault.set('k', { accessToken: 'secret-token-value' }, 60_000);
    expect(JSON.stringify([...store.values.values()])).not.toContain('secret-token-value');
    await expect(vault.get('k')).resolves.toEqual({ accessToken: 'secret-token-value' });
    await expect(new McpTokenVault(store, 'key two').get('k')).resolves.toBeUndefined();
  });

  it('hashes keys, and keeps at most 1 000 entries in memory, expiring them with their TTL', async () => {
    expect(McpTokenVault.keyOf('tokens', 'alice', 'https://s/mcp')).not.toContain('alice');
    const vault = new McpTokenVault(undefined, undefined);
    for (let i = 0; i < 1_001; i++) await vault.set(`k${i}`, i, 60_000);
    await expect(vault.get('k0')).resolves.toBeUndefined();
    await expect(vault.get('k1000')).resolves.toBe(1000);
    await vault.set('short', 1, 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(vault.get('short')).resolves.toBeUndefined();
  });
});
