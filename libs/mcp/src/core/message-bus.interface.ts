/**
 * Publish/subscribe between the instances of one server (how B reaches a stream A holds): JSON values, delivered
 * at most once to the handlers subscribed when they arrive; nothing is kept.
 * @publicApi
 */
export interface McpMessageBus {
  /**
   * True when other instances receive what this bus publishes (Redis); false for the in-process bus. Code
   * that only matters across instances (forwarding a client response, routing to another instance's stream)
   * reads it instead of testing the bus's class.
   */
  readonly crossesInstances: boolean;
  /**
   * Sends `message` (JSON-serialisable) to every current subscriber of `channel`, on any instance. Resolves to
   * how many subscribers it reached (0: nobody was listening, so it is lost), or to nothing when the bus cannot
   * tell; code that must know reads only a 0 as "not received".
   */
  publish(channel: string, message: unknown): Promise<number | void>;
  /** Calls `handler` with each later message on `channel`; resolves, once active, with the function that ends it. */
  subscribe(channel: string, handler: (message: unknown) => void): Promise<() => Promise<void>>;
  /** Rejects when the bus cannot be reached (health checks); absent for the in-process bus. */
  ping?(): Promise<void>;
  close?(): Promise<void>;
}

/** Injection token of the message bus. @publicApi */
export const MCP_BUS = Symbol('MCP_BUS');
