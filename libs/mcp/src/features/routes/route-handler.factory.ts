import { Injectable, Logger } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { ContextIdFactory, ExternalContextCreator, ModuleRef } from '@nestjs/core';
import type { ParamsFactory } from '@nestjs/core/helpers/external-context-creator.js';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { callerOf } from '../../core/caller-headers.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import type { McpToolHandler } from '../../execution/mcp-callable-tool.interface.js';
import type { RouteArguments } from './route-arguments.js';
import { RouteResponse, routeRequest, type RouteRequest } from './route-exchange.js';
import type { RouteShape } from './route-metadata.js';
import { routeAnswerError, routeFailure, routeServerError } from './route-outcome.js';

type Instance = Record<string, (...args: unknown[]) => unknown>;
type RouteCall = (request: RouteRequest, response: RouteResponse, next: () => void) => Promise<unknown>;

/** The whole route pipeline, as Nest's router runs it: guards, interceptors, pipes, the handler, filters. */
const ROUTE_PIPELINE = { guards: true, interceptors: true, filters: true };
const NEXT = () => undefined;

/** Maps `@Req()`, `@Body()`, `@Query()`, `@Param()`, `@Headers()`, `@Ip()`… to the call's request, as Nest's router does. */
const ROUTE_PARAMS: ParamsFactory = {
  exchangeKeyForValue(type: number, data: unknown, [request, response]: unknown[]): unknown {
    const req = request as RouteRequest;
    const pick = (source: unknown) =>
      typeof data === 'string' && source && typeof source === 'object' ? (source as Record<string, unknown>)[data] : source;
    switch (type as RouteParamtypes) {
      case RouteParamtypes.REQUEST:
        return req;
      case RouteParamtypes.RESPONSE:
        return response;
      case RouteParamtypes.BODY:
        return pick(req.body);
      case RouteParamtypes.QUERY:
        return pick(req.query);
      case RouteParamtypes.PARAM:
        return pick(req.params);
      case RouteParamtypes.HEADERS:
        return typeof data === 'string' ? req.headers[data.toLowerCase()] : req.headers;
      case RouteParamtypes.IP:
        return req.ip;
      case RouteParamtypes.HOST:
        return pick({});
      default:
        return undefined;
    }
  },
};

/**
 * Calls a controller handler as a tool through Nest's ExternalContextCreator with the `http` context type and the
 * route's own parameter metadata, so the guards, interceptors, pipes (global `ValidationPipe` included) and
 * exception filters of the route run as on a REST request, on a request built from the arguments and the caller's
 * credential headers; no HTTP round trip.
 */
@Injectable()
export class McpRouteHandlerFactory {
  private readonly logger = new Logger('McpModule');

  constructor(
    private readonly externalContextCreator: ExternalContextCreator,
    private readonly moduleRef: ModuleRef,
  ) {}

  create(wrapper: InstanceWrapper, methodName: string, route: RouteShape, args: RouteArguments, site: string): McpToolHandler {
    const call = this.routeCall(wrapper, methodName, site);
    const argumentNames = new Set(Object.keys((args.inputSchema.properties ?? {}) as object));
    return async (values, context) => {
      const request = routeRequest(route, args.split(values as Record<string, unknown>), callerOf(context));
      const response = new RouteResponse();
      let value: unknown;
      try {
        value = await call(request, response, NEXT);
      } catch (error) {
        // A filter that wrote the answer still leaves the exception thrown (Nest's external handler rethrows it).
        if (!response.sent) throw routeFailure(error, argumentNames);
      }
      if (!response.sent) return value;
      if (response.statusCode < 400) return response.body;
      throw routeAnswerError(response.statusCode, response.body, argumentNames) ?? routeServerError(response.statusCode);
    };
  }

  /**
   * The route pipeline of one handler: built once for a static controller, per call for a request-scoped one (its
   * `REQUEST` is the call's request, as it would be per HTTP request).
   */
  private routeCall(wrapper: InstanceWrapper, methodName: string, site: string): RouteCall {
    // ExternalContextCreator finds a host's module among providers only; a controller's is its wrapper's host, so
    // its module-scoped enhancers (`@UseGuards(JwtGuard)` resolved from the module) are found.
    const moduleKey = wrapper.host?.token ?? '';
    const creator: ExternalContextCreator = Object.create(this.externalContextCreator, {
      getHostModuleKey: { value: () => moduleKey },
    });
    const build = (instance: Instance, contextId?: ReturnType<typeof ContextIdFactory.create>) =>
      creator.create(
        instance,
        instance[methodName]!,
        methodName,
        ROUTE_ARGS_METADATA,
        ROUTE_PARAMS,
        contextId,
        undefined,
        ROUTE_PIPELINE,
        'http',
      ) as RouteCall;
    if (wrapper.isDependencyTreeStatic() && !wrapper.isTransient) return build(wrapper.instance as Instance);
    this.logger.debug(McpMessages.requestScopedTool(site));
    return async (request, response, next) => {
      const contextId = ContextIdFactory.create();
      this.moduleRef.registerRequestByContextId(request, contextId);
      const instance = await this.moduleRef.resolve<Instance>(wrapper.token, contextId, { strict: false });
      return build(instance, contextId)(request, response, next);
    };
  }
}
