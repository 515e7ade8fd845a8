import 'reflect-metadata';
import {
  Body,
  type CanActivate,
  Controller,
  type ExecutionContext,
  Injectable,
  Module,
  Param,
  Post,
  UseGuards,
  ValidationPipe,
} from '@nestjs/common';
import { APP_PIPE, NestFactory } from '@nestjs/core';
import { IsString, Length } from 'class-validator';
import { McpModule } from '@nest-mcp/core';

/** The body of a helpdesk-style write: one validated field. */
class CommentDto {
  @IsString()
  @Length(1, 1_000)
  text!: string;
}

/** A helpdesk-style guard of the app's own: the bearer token must be the expected one. */
@Injectable()
class BearerGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>();
    return request.headers.authorization === 'Bearer bench-token';
  }
}

/** An ordinary REST controller: a guard, a path parameter, a DTO body under a global ValidationPipe. */
@UseGuards(BearerGuard)
@Controller('tickets')
class TicketsController {
  @Post(':id/comments')
  addComment(@Param('id') id: string, @Body() dto: CommentDto): { id: string; text: string } {
    return { id, text: dto.text };
  }
}

const VALIDATION = { provide: APP_PIPE, useValue: new ValidationPipe() };

/**
 * `ours-route`: the controller served as the MCP tool `add_comment` (`routes` option), each call running its guard,
 * the global ValidationPipe and the handler in process; `bare-nest-rest`: the same controller as plain REST
 * (`POST /tickets/:id/comments`, Nest's default body parser), the ceiling the route tool's cost is read against.
 */
export async function start(stack: 'ours-route' | 'bare-nest-rest') {
  if (stack === 'bare-nest-rest') {
    @Module({ controllers: [TicketsController], providers: [BearerGuard, VALIDATION] })
    class RestModule {}
    return NestFactory.create(RestModule, { logger: false });
  }
  @Module({
    imports: [McpModule.forRoot({ name: 'bench-route', version: '1.0.0', sources: { routes: [TicketsController] } })],
    controllers: [TicketsController],
    providers: [BearerGuard, VALIDATION],
  })
  class RouteModule {}
  return NestFactory.create(RouteModule, { bodyParser: false, logger: false });
}
