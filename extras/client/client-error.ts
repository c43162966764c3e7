import { PetstoreError } from '../../lib/index.js';
import type { ErrorCode, PetstoreErrorOptions } from '../../lib/index.js';

/** Options of a PetstoreClientError: those of a PetstoreError, and what only the client knows of the call. */
export interface PetstoreClientErrorOptions extends PetstoreErrorOptions {
  /** The id of the request, as the server's answer reported it in `X-Request-Id`. */
  requestId?: string | undefined;
  /** How many requests the call sent, the first included. Default 1. */
  attempts?: number;
}

/**
 * A failure of a PetstoreClient call: the server's Error (or `unavailable` when no answer of the
 * interface came), with what the client knows beside it. Neither field is part of the Error body.
 */
export class PetstoreClientError extends PetstoreError {
  /** The id of the failed request, when the server's answer carried one: the id to find in the server's log. */
  readonly requestId: string | undefined;
  /** How many requests the client sent before this failure ended the call. */
  readonly attempts: number;

  constructor(code: ErrorCode, message: string, options: PetstoreClientErrorOptions = {}) {
    const { requestId, attempts, ...errorOptions } = options;
    super(code, message, errorOptions);
    // The frames the engine's client errors go without (lib/errors.ts): here they show which call of the application failed.
    Error.captureStackTrace?.(this, PetstoreClientError);
    this.name = 'PetstoreClientError';
    this.requestId = requestId;
    this.attempts = attempts ?? 1;
  }
}
