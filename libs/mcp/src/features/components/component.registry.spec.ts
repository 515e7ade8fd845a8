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

  describe('components of a source (an upstream)', () => {
    it('lets a source swap and withdraw only what it put there', () => {
      const { components } = registry();
      components.add('local', entry('local', 'app'));
      expect(components.putFrom('up', 'a', entry('a', '1', true))).toBe(true);
      expect(components.putFrom('up', 'a', entry('a', '2', true))).toBe(true);
      expect(components.get('a')?.descriptor.text).toBe('2');
      expect(components.putFrom('up', 'local', entry('local', 'upstream', true))).toBe(false);
      expect(components.putFrom('other', 'a', entry('a', 'other', true))).toBe(false);
      expect(components.withdraw('other', 'a')).toBe(false);
      expect(components.withdraw('up', 'local')).toBe(false);
      expect(components.descriptors().map((descriptor) => descriptor.text)).toEqual(['app', '2']);
      expect(components.withdraw('up', 'a')).toBe(true);
      expect(components.has('a')).toBe(false);
    });

    it("gives the app's runtime registration the key a source holds; the app cannot replace or remove the source's", () => {
      const { components } = registry();
      components.putFrom('up', 'a', entry('a', 'upstream', true));
      expect(thrown(() => components.replace('a', entry('a', 'app', true)))).toBeInstanceOf(McpConfigurationError);
      expect(components.remove('a', 'runtime#a')).toBe(false);
      components.register('a', entry('a', 'app', true));
      expect(components.get('a')?.descriptor.text).toBe('app');
      expect(components.sourceOf('a')).toBeUndefined();
      expect(components.withdraw('up', 'a')).toBe(false);
      expect(components.putFrom('up', 'a', entry('a', 'upstream again', true))).toBe(false);
      expect(components.get('a')?.descriptor.text).toBe('app');
    });

    it('keeps a reserved key from every source, evicting the one holding it', () => {
      const { components } = registry();
      components.putFrom('up', 'search_tools', entry('search_tools', 'upstream', true));
      components.reserve('search_tools');
      expect(components.has('search_tools')).toBe(false);
      expect(components.putFrom('up', 'search_tools', entry('search_tools', 'again', true))).toBe(false);
    });

    it('lists entries with scopes only to callers holding them', () => {
      const { components } = registry();
      components.add('open', entry('open', 'everyone'));
      components.putFrom('up', 'scoped', { ...entry('scoped', 'secret', true), scopes: ['crm'] });
      const texts = (held: string[] | undefined) => components.descriptorsFor(held).map((descriptor) => descriptor.text);
      expect(texts([])).toEqual(['everyone']);
      expect(texts(['crm'])).toEqual(['everyone', 'secret']);
      expect(texts(undefined)).toEqual(['everyone', 'secret']);
    });
  });
});
