import { compileUriTemplate, UriTemplateError } from './uri-template.js';
import { isAbsoluteUri } from './resource-uri.js';

describe('compileUriTemplate', () => {
  it('matches a one-variable template and lists its variables', () => {
    const template = compileUriTemplate('test://template/{id}/data');
    expect(template.variables).toEqual(['id']);
    expect(template.match('test://template/123/data')).toEqual({ id: '123' });
  });

  it.each([
    ['test://template//data', 'an empty segment'],
    ['test://template/1/2/data', 'two segments'],
    ['test://template/123/data/more', 'a longer URI'],
    ['xtest://template/123/data', 'a longer prefix'],
    ['test://template/123', 'a missing suffix'],
    ['test://template/1?x/data', 'a "?" in the value'],
    ['test://template/1#x/data', 'a "#" in the value'],
  ])('rejects %s (%s)', (uri) => {
    expect(compileUriTemplate('test://template/{id}/data').match(uri)).toBeUndefined();
  });

  it('percent-decodes values, and refuses malformed escapes', () => {
    const template = compileUriTemplate('app://users/{name}');
    expect(template.match('app://users/J%C3%BCrgen%20M')).toEqual({ name: 'Jürgen M' });
    expect(template.match('app://users/a%2Fb')).toEqual({ name: 'a/b' });
    expect(template.match('app://users/%E0%A4%A')).toBeUndefined();
  });

  it('matches several variables, and literal regex characters literally', () => {
    const template = compileUriTemplate('app://repo/{owner}.{repo}/file(s)?ref={ref}');
    expect(template.variables).toEqual(['owner', 'repo', 'ref']);
    expect(template.match('app://repo/nest.mcp/file(s)?ref=main')).toEqual({ owner: 'nest', repo: 'mcp', ref: 'main' });
    expect(template.match('app://repo/nest.mcp/files?ref=main')).toBeUndefined();
  });

  it('lets {+var} span several segments', () => {
    const template = compileUriTemplate('file:///{+path}');
    expect(template.match('file:///home/user/notes.md')).toEqual({ path: 'home/user/notes.md' });
    expect(compileUriTemplate('file:///{+path}/meta').match('file:///a/b/meta')).toEqual({ path: 'a/b' });
  });

  it('expands every variable to a sample value', () => {
    expect(compileUriTemplate('test://{a}/x/{+b}').expand('v')).toBe('test://v/x/v');
  });

  it.each([
    ['test://static', 'no {variable}'],
    ['test://{id', 'never closed'],
    ['test://id}/x', 'no matching "{"'],
    ['test://{a{b}}', 'never closed'],
    ['test://{}', 'names no variable'],
    ['test://{+}', 'names no variable'],
    ['test://x{?q}', 'operator "?"'],
    ['test://x{/path}', 'operator "/"'],
    ['test://x/{#frag}', 'operator "#"'],
    ['test://{a,b}', 'one variable per expression'],
    ['test://{list*}', 'one variable per expression'],
    ['test://{name:3}', 'one variable per expression'],
    ['test://{na-me}', 'not a variable name'],
    ['test://{id}/{id}', 'appears twice'],
  ])('rejects %s (%s)', (template, problem) => {
    let error: unknown;
    try {
      compileUriTemplate(template);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(UriTemplateError);
    expect((error as Error).message).toContain(problem);
  });
});

describe('isAbsoluteUri', () => {
  it.each(['test://static-text', 'file:///notes/today.md', 'https://example.com/a?b=c', 'urn:isbn:0451450523', 'app://config'])(
    'accepts %s',
    (uri) => {
      expect(isAbsoluteUri(uri)).toBe(true);
    },
  );

  it.each([
    '',
    'static-text',
    '/absolute/path',
    '//host/path',
    'test:',
    '1abc://x',
    'test://with space',
    'test://tab\there',
    42,
    undefined,
  ])('rejects %j', (uri) => {
    expect(isAbsoluteUri(uri)).toBe(false);
  });
});
