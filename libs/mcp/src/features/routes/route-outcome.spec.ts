import { BadRequestException, HttpException, NotFoundException } from '@nestjs/common';
import { McpToolError } from '../../core/errors/mcp-tool.error.js';
import { routeAnswerError, routeFailure } from './route-outcome.js';

const names = new Set(['title', 'tags', 'requester']);

describe('route outcomes', () => {
  it.each([
    [400, 'VALIDATION_ERROR'],
    [401, 'UNAUTHORIZED'],
    [403, 'FORBIDDEN'],
    [404, 'NOT_FOUND'],
    [409, 'CONFLICT'],
    [410, 'GONE'],
    [418, 'I_M_A_TEAPOT'],
    [422, 'VALIDATION_ERROR'],
    [429, 'RATE_LIMITED'],
  ])('codes a %i answer %s', (status, code) => {
    const message = code === 'VALIDATION_ERROR' ? 'Invalid arguments: why' : 'why';
    expect(routeAnswerError(status, { message: 'why' }, names)).toMatchObject({ code, message });
  });

  it('names the arguments ValidationPipe messages start with, nested and `each` ones included', () => {
    const error = routeFailure(
      new BadRequestException([
        'title must be longer than or equal to 3 characters',
        'each value in tags must be shorter than or equal to 30 characters',
        'requester.email must be an email',
        'Custom message without a property',
        'unknown must be a string',
      ]),
      names,
    ) as McpToolError;
    expect(error).toBeInstanceOf(McpToolError);
    expect(error.fields).toEqual(['title', 'tags', 'requester.email']);
    // A DTO tool's refusal, word for word: `<path>: <reason>`, the messages naming no argument without a path.
    expect(error.message).toBe(
      'Invalid arguments: title: title must be longer than or equal to 3 characters, ' +
        'tags: each value in tags must be shorter than or equal to 30 characters, requester.email: requester.email must be an email, ' +
        'Custom message without a property; unknown must be a string',
    );
  });

  it('leaves a 5xx and anything that is not an HttpException to the call runner (INTERNAL_ERROR)', () => {
    const server = new HttpException('db password hunter2', 503);
    expect(routeFailure(server, names)).toBe(server);
    const plain = new Error('boom');
    expect(routeFailure(plain, names)).toBe(plain);
    expect(routeAnswerError(500, { message: 'x' }, names)).toBeUndefined();
  });

  it('falls back to the reason phrase when the body has no message', () => {
    expect(routeFailure(new NotFoundException(), names)).toMatchObject({ code: 'NOT_FOUND', message: 'Not Found' });
    expect(routeAnswerError(404, undefined, names)).toMatchObject({ message: 'Not Found' });
  });
});
