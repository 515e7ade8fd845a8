import {
  Body,
  Catch,
  Controller,
  Delete,
  Get,
  Headers,
  HttpException,
  Inject,
  Injectable,
  Module,
  Param,
  ParseIntPipe,
  Post,
  Put,
  Query,
  Req,
  Res,
  Scope,
  UnauthorizedException,
  UseFilters,
  UseGuards,
  UseInterceptors,
  ValidationPipe,
  type ArgumentsHost,
  type CallHandler,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { APP_INTERCEPTOR, APP_PIPE, REQUEST } from '@nestjs/core';
import { ApiOperation, ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import { map, type Observable } from 'rxjs';
import { SignJWT } from 'jose';
import { McpExcludeRoute, McpModule, McpRoute, type McpModuleForRootOptions } from '@nest-mcp/core';

/** The key and the JWT secret the MCP endpoint accepts; the app's own guard accepts only {@link APP_KEY} or a JWT. */
export const APP_KEY = 'widget-key-0123456789';
export const OTHER_KEY = 'other-key-0123456789';
export const JWT_SECRET = 'widgets-secret-widgets-secret-widgets-secret';

export function widgetToken(sub = 'ada'): Promise<string> {
  return new SignJWT({ tenant_id: 'acme', scope: 'widgets' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(JWT_SECRET));
}

/** What the app's guard saw of the caller's credentials, as a REST guard would. */
type Seen = { apiKey?: string; authorization?: string };

/** The app's own guard: only `X-API-Key: APP_KEY` or a Bearer token pass (it does not verify: the MCP layer did). */
@Injectable()
class WidgetKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined>; seen?: Seen }>();
    const apiKey = request.headers['x-api-key'];
    const authorization = request.headers.authorization;
    if (apiKey !== APP_KEY && !authorization?.startsWith('Bearer ')) throw new UnauthorizedException('Widget key required');
    request.seen = { apiKey, authorization };
    return true;
  }
}

@Injectable()
class WrapInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(map((data: unknown) => ({ wrapped: data })));
  }
}

/** What the app-wide interceptor saw: `<context type>:<handler>` per call. */
export const globallyIntercepted: string[] = [];

/** An app-wide interceptor (APP_INTERCEPTOR): it must run on route tools as on REST requests. */
@Injectable()
class RecordingInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    globallyIntercepted.push(`${context.getType()}:${context.getHandler().name}`);
    return next.handle();
  }
}

class TeapotError extends Error {}

/** Answers a TeapotError as REST would see it: 418 with its own body. */
@Catch(TeapotError)
class TeapotFilter implements ExceptionFilter {
  catch(_error: TeapotError, host: ArgumentsHost): void {
    host
      .switchToHttp()
      .getResponse<{ status(code: number): { json(body: unknown): void } }>()
      .status(418)
      .json({ message: 'short and stout' });
  }
}

export class WidgetDto {
  @ApiProperty({ description: 'Widget name', example: 'sprocket' })
  @IsString()
  @Length(2, 10)
  name!: string;
}

export class WidgetQuery {
  @IsOptional()
  @IsString()
  colour?: string;
}

@UseGuards(WidgetKeyGuard)
@Controller('widgets')
export class WidgetsController {
  @ApiOperation({ summary: 'One widget' })
  @Get(':id')
  getWidget(
    @Param('id', ParseIntPipe) id: number,
    @Query() query: WidgetQuery,
    @Headers('x-api-key') key: string | undefined,
    @Req() request: { seen?: Seen; url: string },
  ) {
    return { id, idType: typeof id, colour: query.colour ?? null, key: key ?? null, seen: request.seen, url: request.url };
  }

  @Post()
  createWidget(@Body() dto: WidgetDto) {
    return { created: dto.name, isDto: dto instanceof WidgetDto };
  }

  @Put(':id')
  replaceWidget(@Param('id') id: string, @Body() dto: WidgetDto) {
    return { replaced: id, name: dto.name };
  }

  @Delete(':id')
  deleteWidget(@Param('id') id: string) {
    return { deleted: id };
  }

  @Get('fail/:code')
  fail(@Param('code', ParseIntPipe) code: number): never {
    throw new HttpException(code >= 500 ? 'secret internals: db password hunter2' : `failed with ${code}`, code);
  }

  @UseInterceptors(WrapInterceptor)
  @Get('wrapped/one')
  wrapped() {
    return 'inside';
  }

  @UseFilters(TeapotFilter)
  @Get('teapot/brew')
  teapot(): never {
    throw new TeapotError('brew');
  }

  @McpExcludeRoute()
  @Get('download/file')
  download(@Res() response: { end(body: string): void }) {
    response.end('bytes');
  }
}

/** A route that writes its own response, marked as a tool: the boot must fail. */
@Controller('stream')
export class StreamingController {
  @McpRoute({ description: 'Streams' })
  @Get()
  stream(@Res() response: { end(body: string): void }) {
    response.end('x');
  }
}

/** A path parameter and a body property with one name. */
@Controller('clash')
export class ClashController {
  @McpRoute()
  @Post(':name')
  rename(@Param('name') name: string, @Body() dto: WidgetDto) {
    return { name, dto };
  }
}

let scopedInstances = 0;

/** A request-scoped controller: one instance per call, its REQUEST the call's request. */
@Controller({ path: 'scoped', scope: Scope.REQUEST })
export class ScopedController {
  private readonly instance = ++scopedInstances;

  constructor(@Inject(REQUEST) private readonly request: { url: string }) {}

  @McpRoute({ description: 'Which instance served the call' })
  @Get('echo')
  echo() {
    return { instance: this.instance, url: this.request.url };
  }
}

@Module({ controllers: [WidgetsController, ScopedController] })
export class WidgetsModule {}

export const WIDGETS_MCP: McpModuleForRootOptions = {
  name: 'widgets',
  version: '1.0.0',
  auth: {
    apiKeys: [
      { key: APP_KEY, tenant: 'acme' },
      { key: OTHER_KEY, tenant: 'acme' },
    ],
    jwt: { secret: JWT_SECRET },
  },
  sources: { routes: [WidgetsModule] },
};

/** The widgets app: its module listed in `routes`, a global ValidationPipe (APP_PIPE) and interceptor (APP_INTERCEPTOR). */
export function widgetsApp(options: Partial<McpModuleForRootOptions> = {}) {
  @Module({
    imports: [WidgetsModule, McpModule.forRoot({ ...WIDGETS_MCP, ...options })],
    providers: [
      { provide: APP_PIPE, useValue: new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }) },
      { provide: APP_INTERCEPTOR, useClass: RecordingInterceptor },
    ],
  })
  class WidgetsAppModule {}
  return WidgetsAppModule;
}
