import type { CoreResponse, RequestHeaders } from '../../server/core/index.js';
import type { Observation, RequestObserver } from '../../server/node/index.js';
import { accessLogLine } from './access-log.js';
import type { RequestMetrics } from './metrics.js';

/**
 * What the standalone server notes of one request, for the access log and the metrics: made only
 * when one of them is on, so a server without them does no work for them at all.
 */
export class ObservedRequest implements Observation {
  readonly #metrics: RequestMetrics | undefined;
  /** `performance.now()` when the request reached the server. */
  readonly started = performance.now();
  /** The id its answer carries, once it has one. */
  requestId: string | undefined;

  constructor(metrics: RequestMetrics | undefined) {
    this.#metrics = metrics;
  }

  /** The request core takes the request. */
  enterCore(): void {
    this.#metrics?.started();
  }

  /** The core answered, whether or not the answer could still be written. */
  answered(reply: CoreResponse): void {
    this.requestId = reply.requestId;
    this.#metrics?.answered(reply.operation, reply.status, this.started, reply.headers);
  }

  /** The server answered before the core (a refused pipeline, a 417), with this id. */
  refused(requestId: string, status: number): void {
    this.requestId = requestId;
    this.#metrics?.refused(status, this.started);
  }
}

/** The observer for an access log (one JSON line per request, written when its connection is done with it) and metrics. */
export function createRequestObserver(accessLog: ((line: string) => void) | undefined, metrics: RequestMetrics | undefined, idOf: (headers: RequestHeaders) => string): RequestObserver | undefined {
  if (accessLog === undefined && metrics === undefined) return undefined;
  return function begin(request, response) {
    const observation = new ObservedRequest(metrics);
    if (accessLog !== undefined) {
      response.once('close', () => {
        // Never answered (the client left first): the id the core would have given, never an API key.
        const requestId = observation.requestId ?? idOf(request.headers);
        accessLog(accessLogLine(request, response, requestId, performance.now() - observation.started));
      });
    }
    return observation;
  };
}
