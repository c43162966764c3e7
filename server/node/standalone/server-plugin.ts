import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CoreResponse, PluginContext, PluginParts } from '../../core/index.js';

/** What a plug-in of the standalone server learns beyond what every core tells: whether shutdown has begun. */
export interface ServerPluginContext extends PluginContext {
  /** True from the moment `close()` is called: a readiness check then answers 503, so a balancer stops sending. */
  isClosing(): boolean;
}

/** What a plug-in adds to the standalone server: routes, as to any core, and an observer of every request. */
export interface ServerPluginParts extends PluginParts {
  readonly observe?: RequestObserver;
}

/** A plug-in of the standalone server (the operator's kit, say); every plug-in of a core is one too. */
export type ServerPlugin = (context: ServerPluginContext) => ServerPluginParts;

/** What a plug-in of the standalone server learns of one request as it goes (for an access log or metrics, say). */
export interface Observation {
  /** The request core takes the request. */
  enterCore(): void;
  /** The core answered, whether or not the answer could still be written. */
  answered(reply: CoreResponse): void;
  /** The server answered before the core (a refused pipeline, a 417), with this id. */
  refused(requestId: string, status: number): void;
}

/** Begins the observation of each request the standalone server receives. */
export type RequestObserver = (request: IncomingMessage, response: ServerResponse) => Observation;

/** One observer telling each of several; undefined when there are none, so a server without them does no work for them. */
export function combineObservers(observers: readonly RequestObserver[]): RequestObserver | undefined {
  if (observers.length <= 1) return observers[0];
  return (request, response) => {
    const observations = observers.map((observe) => observe(request, response));
    return {
      enterCore: () => observations.forEach((observation) => observation.enterCore()),
      answered: (reply) => observations.forEach((observation) => observation.answered(reply)),
      refused: (requestId, status) => observations.forEach((observation) => observation.refused(requestId, status)),
    };
  };
}
