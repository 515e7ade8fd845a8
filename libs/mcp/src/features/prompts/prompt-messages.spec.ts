import { toGetPromptResult } from './prompt-messages.js';

describe('toGetPromptResult', () => {
  it('accepts a string, an array of messages, or a result with a description', () => {
    expect(toGetPromptResult('hi')).toEqual({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] });
    expect(toGetPromptResult([{ role: 'assistant', content: 'ok' }])).toEqual({
      messages: [{ role: 'assistant', content: { type: 'text', text: 'ok' } }],
    });
    expect(toGetPromptResult({ description: 'd', messages: [] })).toEqual({ description: 'd', messages: [] });
  });

  it.each<[string, unknown]>([
    ['audio', { type: 'audio', data: 'AAA=', mimeType: 'audio/wav' }],
    ['a resource link', { type: 'resource_link', uri: 'test://x', name: 'x' }],
    ['an embedded blob', { type: 'resource', resource: { uri: 'test://x', blob: 'AAA=' } }],
  ])('accepts %s content', (_label, content) => {
    expect(toGetPromptResult([{ role: 'user', content }])).toEqual({ messages: [{ role: 'user', content }] });
  });

  it.each<[string, unknown]>([
    ['undefined', undefined],
    ['a number', 1],
    ['an object without messages', { description: 'd' }],
    ['a non-string description', { description: 1, messages: [] }],
    ['a system role', [{ role: 'system', content: 'x' }]],
    ['a message without content', [{ role: 'user' }]],
    ['an unknown content type', [{ role: 'user', content: { type: 'video', data: 'x' } }]],
    ['text without text', [{ role: 'user', content: { type: 'text' } }]],
    ['an image without mimeType', [{ role: 'user', content: { type: 'image', data: 'AAA=' } }]],
    ['an embedded resource without text or blob', [{ role: 'user', content: { type: 'resource', resource: { uri: 'test://x' } } }]],
    ['an embedded resource without uri', [{ role: 'user', content: { type: 'resource', resource: { text: 'x' } } }]],
  ])('refuses %s', (_label, value) => {
    expect(toGetPromptResult(value)).toBeUndefined();
  });
});
