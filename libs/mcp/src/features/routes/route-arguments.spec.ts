import 'reflect-metadata';
import { Body, Controller, Get, Param, ParseIntPipe, Post, Query } from '@nestjs/common';
import { IsInt, IsOptional, IsString, Length } from 'class-validator';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { thrown } from '../../../../../test/kit/boot-mcp.js';
import { DtoSchemaFactory } from '../tools/schema/dto-schema.factory.js';
import { routeArguments } from './route-arguments.js';
import { readRoute } from './route-metadata.js';

class NoteDto {
  @IsString()
  @Length(1, 50)
  text!: string;
}

class PageQuery {
  @IsOptional()
  @IsInt()
  limit?: number;
}

@Controller('boards/:board')
class BoardsController {
  @Post('notes/:note')
  add(@Param('board') _board: string, @Param('note', ParseIntPipe) _note: number, @Query() _page: PageQuery, @Body() _dto: NoteDto) {}

  @Get()
  list(@Param('board') _board: string, @Query('board') _again: string) {}
}

const argumentsOf = (method: 'add' | 'list') =>
  routeArguments(
    readRoute(BoardsController, BoardsController.prototype, method, `BoardsController#${method}`),
    BoardsController.prototype[method],
    `BoardsController#${method}`,
    new DtoSchemaFactory(),
  );

describe('route arguments', () => {
  it('flattens path parameters (typed by ParseIntPipe), the query DTO and the body DTO into one schema', () => {
    expect(argumentsOf('add').inputSchema).toEqual({
      type: 'object',
      properties: {
        board: { type: 'string' },
        note: { type: 'integer' },
        limit: { type: 'integer' },
        text: { type: 'string', minLength: 1, maxLength: 50 },
      },
      required: ['board', 'note', 'text'],
      additionalProperties: false,
    });
  });

  it('splits arguments back: path and query values as HTTP strings, the body as sent, unknown names left out', () => {
    expect(argumentsOf('add').split({ board: 'b1', note: 7, limit: 5, text: 'hi', extra: true })).toEqual({
      params: { board: 'b1', note: '7' },
      query: { limit: '5' },
      body: { text: 'hi' },
    });
  });

  it('refuses a name that is both a path parameter and a query parameter, naming both', () => {
    const error = thrown(() => argumentsOf('list'));
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error.message).toContain('"board" would be both the path parameter and the query parameter');
  });
});
