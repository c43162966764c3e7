import { PetstoreError } from '../../lib/index.js';
import type { ErrorCode, PetstoreErrorOptions } from '../../lib/index.js';
import type { HeaderList } from './response.js';

/** Options of an HttpError: those of a PetstoreError, and the headers of its answer. */
export interface HttpErrorOptions extends PetstoreErrorOptions {
  /** Headers the answer to this error carries: the allowed methods of a 405, the challenge of a 401, the `Retry-After` of a 409. */
  headers?: HeaderList;
}

const NO_HEADERS: HeaderList = [];

/**
 * A PetstoreError as the HTTP layer answers it: the spec's Error, plus the headers only HTTP knows
 * of. `errorResponse` sends them with the Error body; the engine never sees this type.
 */
export class HttpError extends PetstoreError {
  readonly headers: HeaderList;

  constructor(code: ErrorCode, message: string, options: HttpErrorOptions = {}) {
    const { headers, ...errorOptions } = options;
    super(code, message, errorOptions);
    this.name = 'HttpError';
    this.headers = headers ?? NO_HEADERS;
  }
}
