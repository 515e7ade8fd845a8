import { Inject, Injectable, Logger, type Type } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, ModulesContainer } from '@nestjs/core';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { McpMessages } from '../../core/errors/mcp.messages.js';
import { MCP_RESOLVED_OPTIONS } from '../../core/mcp-resolved-options.token.js';
import type { McpResolvedOptions } from '../../options/mcp-module-options.interface.js';
import type { McpComponent, McpComponentProvider } from '../components/mcp-component-provider.interface.js';
import { MCP_METADATA, McpMetadataAccessor } from '../mcp-metadata.accessor.js';
import type { McpToolDefinition } from '../tools/mcp-tool-definition.interface.js';
import { DtoSchemaFactory } from '../tools/schema/dto-schema.factory.js';
import { RawSchemaCompiler } from '../tools/schema/raw-schema.compiler.js';
import { checkToolBindings, checkToolNameAndTimeout } from '../tools/tool-definition.checks.js';
import { methodNameToToolName } from '../tools/tool-name.js';
import type { McpRouteOptions } from './mcp-route-options.interface.js';
import { McpRouteMessages } from './mcp-route.messages.js';
import { routeArguments } from './route-arguments.js';
import { McpRouteHandlerFactory } from './route-handler.factory.js';
import { RouteMiddleware } from './route-middleware.js';
import { isRouteHandler, readRoute, VERB_HINTS, type McpRouteVerb } from './route-metadata.js';
import { acceptedAsSent } from '../../execution/validation/argument-validator.interface.js';

/** The options of `@McpRoute()` that name or describe one handler, refused on a class. */
const HANDLER_ONLY_OPTIONS = ['name', 'description', 'title'] as const;

/**
 * The tools of controller routes (a component provider): every handler with `@McpRoute()`, every handler of a
 * controller with `@McpRoute()` on its class or listed in the module option `sources.routes` (a controller or a module),
 * but those with `@McpExcludeRoute()`. Read once at boot; a route that cannot be a tool or whose arguments clash
 * fails the boot.
 */
@Injectable()
export class McpRouteExplorer implements McpComponentProvider {
  private readonly logger = new Logger('McpModule');
  private readonly schemas = {
    dto: new DtoSchemaFactory({ debug: (message) => this.logger.debug(message) }),
    raw: new RawSchemaCompiler(),
  };

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly accessor: McpMetadataAccessor,
    private readonly handlers: McpRouteHandlerFactory,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: McpResolvedOptions,
    private readonly modules: ModulesContainer,
  ) {}

  /** The app's Nest middleware, read at the first route served as a tool (an app without route tools pays nothing). */
  private middleware?: RouteMiddleware;

  *components(): Iterable<McpComponent> {
    const controllers = this.controllers();
    const listed = this.listed(controllers);
    for (const wrapper of controllers) {
      const controller = wrapper.metatype as Type<unknown>;
      const classOptions = this.classOptions(controller);
      const whole = classOptions !== undefined || listed.has(controller) || listed.has(wrapper.host?.metatype as Type<unknown>);
      const prototype = controller.prototype as Record<string, unknown>;
      for (const methodName of this.scanner.getAllMethodNames(prototype)) {
        const method = prototype[methodName];
        if (!isRouteHandler(method) || this.accessor.get(MCP_METADATA.routeExcluded, method) === true) continue;
        const options = this.accessor.get(MCP_METADATA.route, method);
        if (!options && !whole) continue;
        const site = `${controller.name}#${methodName}`;
        yield { kind: 'tool', definition: this.describe(wrapper, methodName, site, { ...classOptions, ...options }, classOptions) };
      }
    }
  }

  private describe(
    wrapper: InstanceWrapper,
    methodName: string,
    site: string,
    options: McpRouteOptions,
    classOptions: McpRouteOptions | undefined,
  ): McpToolDefinition {
    const controller = wrapper.metatype as Type<unknown>;
    const prototype = controller.prototype as object;
    const method = (prototype as Record<string, unknown>)[methodName];
    const route = readRoute(controller, prototype, methodName, site);
    const middleware = (this.middleware ??= RouteMiddleware.read(this.modules)).namesFor(route, controller);
    if (middleware.length > 0)
      throw new McpConfigurationError(McpRouteMessages.middleware(site, `${route.verb} ${route.path}`, middleware.join(', ')));
    const name = options.name ?? methodNameToToolName(methodName);
    const timeoutMs = options.timeoutMs ?? this.options.tools.timeoutMs;
    checkToolNameAndTimeout(site, name, timeoutMs);

    const args = routeArguments(route, method as object, site, this.schemas.dto);
    // The route's own pipes validate; the schema is compiled anyway, so a schema clients cannot use fails the boot.
    try {
      this.schemas.raw.compile(args.inputSchema);
    } catch (error) {
      throw new McpConfigurationError(McpMessages.invalidInputSchema(site, error instanceof Error ? error.message : String(error)));
    }
    const annotations = { ...VERB_HINTS[route.verb], ...classOptions?.annotations, ...options.annotations };
    return {
      name,
      site,
      descriptor: {
        name,
        ...(options.title !== undefined && { title: options.title }),
        description: this.descriptionOf(options, method, route.verb, route.path),
        inputSchema: args.inputSchema,
        ...(Object.keys(annotations).length > 0 && { annotations }),
      },
      // Names, prototype keys and URL-borne values are checked here; the rest is the route's pipes' to judge.
      validator: {
        validate: (values) => {
          const refused = args.refuse(values);
          return refused ? { valid: false, ...refused } : acceptedAsSent(values);
        },
        revive: acceptedAsSent,
      },
      // A `{ provider }` selector of the transforms option picks a controller's route tools by its class.
      declaredBy: controller,
      timeoutMs,
      scopes: checkToolBindings(site, args.inputSchema, undefined, options.scopes),
      handler: this.handlers.create(wrapper, methodName, route, args, site),
    };
  }

  /** `@McpRoute({ description })`, else `@ApiOperation()`'s description or summary, else the verb and path. */
  private descriptionOf(options: McpRouteOptions, method: unknown, verb: McpRouteVerb, path: string): string {
    if (typeof options.description === 'string' && options.description.trim() !== '') return options.description;
    const operation = this.accessor.get(MCP_METADATA.apiOperation, method);
    for (const text of [operation?.description, operation?.summary]) if (typeof text === 'string' && text.trim() !== '') return text;
    return `${verb} ${path}`;
  }

  private classOptions(controller: Type<unknown>): McpRouteOptions | undefined {
    const options = this.accessor.get(MCP_METADATA.route, controller);
    const misplaced = options && HANDLER_ONLY_OPTIONS.find((key) => options[key] !== undefined);
    if (misplaced) throw new McpConfigurationError(McpRouteMessages.classOptions(controller.name, misplaced));
    return options;
  }

  /** The controllers this server serves: all of the app's, or those declared in the `include`d modules. */
  private controllers(): InstanceWrapper[] {
    const include = this.options.include;
    const wrappers = include === undefined ? this.discovery.getControllers() : this.discovery.getControllers({ include: [...include] });
    return wrappers.filter((wrapper) => typeof wrapper.metatype === 'function');
  }

  /** The option `sources.routes`: controller and module classes, each of which must hold controllers of this server. */
  private listed(controllers: readonly InstanceWrapper[]): ReadonlySet<Type<unknown>> {
    const present = new Set<unknown>(controllers.flatMap((wrapper) => [wrapper.metatype, wrapper.host?.metatype]));
    for (const entry of this.options.sources.routes) {
      if (!present.has(entry)) throw new McpConfigurationError(McpRouteMessages.notAController(entry.name || String(entry)));
    }
    return new Set(this.options.sources.routes);
  }
}
