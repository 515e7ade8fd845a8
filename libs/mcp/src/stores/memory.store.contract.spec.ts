import { McpMemoryBus } from './memory-message.bus.js';
import { McpMemoryStore } from './memory.store.js';
import { describeBusContract, describeStoreContract } from '../../../../test/kit/store-contract.js';

describeStoreContract('McpMemoryStore', async () => {
  const store = new McpMemoryStore();
  return { store, cleanup: () => store.close() };
});

describeBusContract('McpMemoryBus', async () => {
  // One process: the "other instance" is the same bus.
  const bus = new McpMemoryBus();
  return { bus, peer: bus, cleanup: () => bus.close() };
});
