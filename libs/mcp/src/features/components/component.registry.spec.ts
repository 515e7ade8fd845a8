import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { thrown } from '../../../../../test/kit/boot-mcp.js';
import { McpComponentRegistry, type McpComponentEntry } from './component.registry.js';

type Entry = McpComponentEntry<{ name: string; text: string }>;

const detail = (message: string) => ({ code: 'MCP_ERR_TEST_COMPONENT' as const, message });
const messages = {
  duplicate: (key: string, existing: string, site: string) => detail(`duplicate ${key}: ${existing} / ${site}`),
  taken: (site: string, existing: string) => detail(`taken ${site} by ${existing}`),
  notRegistered: (site: string) => detail(`not registered ${site}`),
  decorated: (site: string, existing: string) => detail(`decorated ${site} by ${existing}`),
  listChangedOff: (site: string) => detail(`list fixed ${site}`),
};

function entry(name: string, text: string, runtime = false): Entry {
  return { site: `${runtime ? 'runtime' : 'Class'}#${name}`, descriptor: { name, text }, ...(runtime && { runtime }) };
}

function registry(changesAtRuntime = true) {
  const announced: number[] = [];
  const components = new McpComponentRegistry<Entry>({ messages, changesAtRuntime, announce: () => announced.push(components.size) });
  return { components, announced };
}

describe('McpComponentRegistry', () => {
  it('keeps registration order and refuses a duplicate key at boot, naming both sites', () => {
    const { components, announced } = registry();
    components.add('a', entry('a', '1'));
    components.add('b', entry('b', '2'));
    expect(components.descriptors().map((descriptor) => descriptor.name)).toEqual(['a', 'b']);
    const error = thrown(() => components.add('a', entry('a', 'again')));
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toBe('duplicate a: Class#a / Class#a');
    expect(announced).toEqual([]);
  });

  it('registers, replaces in place and removes runtime entries, announcing each change', () => {
    const { components, announced } = registry();
    components.add('fixed', entry('fixed', '0'));
    components.register('r', entry('r', '1', true));
    components.register('s', entry('s', '2', true));
    components.replace('r', entry('r', '1b', true));
    expect(components.descriptors().map((descriptor) => descriptor.text)).toEqual(['0', '1b', '2']);
    expect(components.remove('r', 'remove(r)')).toBe(true);
    expect(components.remove('r', 'remove(r)')).toBe(false);
    expect(components.get('r')).toBeUndefined();
    expect(announced).toEqual([2, 3, 3, 2]);
  });

  it('refuses a taken key, and replacing or removing what was not registered at runtime', () => {
    const { components } = registry();
    components.add('fixed', entry('fixed', '0'));
    expect(thrown(() => components.register('fixed', entry('fixed', 'x', true))).message).toBe('taken runtime#fixed by Class#fixed');
    expect(thrown(() => components.replace('fixed', entry('fixed', 'x', true))).message).toBe('decorated runtime#fixed by Class#fixed');
    expect(thrown(() => components.replace('none', entry('none', 'x', true))).message).toBe('not registered runtime#none');
    expect(thrown(() => components.remove('fixed', 'remove(fixed)')).message).toBe('decorated remove(fixed) by Class#fixed');
  });

  it('refuses runtime changes when clients were told the list is fixed', () => {
    expect(thrown(() => registry(false).components.checkRuntime('site')).message).toBe('list fixed site');
    expect(() => registry(true).components.checkRuntime('site')).not.toThrow();
  });
});
