/** Every `code` an Error body from this project can carry, with the HTTP status it is sent with. */
export const ERROR_CODES = {
  bad_request: 400,
  invalid_json: 400,
  invalid_parameter: 400,
  validation_failed: 400,
  invalid_idempotency_key: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  idempotency_key_in_use: 409,
  expectation_failed: 417,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  headers_too_large: 431,
  internal_error: 500,
  idempotency_unsupported: 501,
  unavailable: 503,
  insufficient_storage: 507,
} as const;

/** A machine-readable error code [spec 2, Error.code]. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** One problem with one field of a request. */
export interface ErrorDetail {
  field: string;
  message: string;
}

/** The wire shape of every error response [spec 2, 7]; `details` lists field problems of a 400. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  status: number;
  details?: ErrorDetail[];
}

/** Options of a PetstoreError beyond its code and message. */
export interface PetstoreErrorOptions {
  details?: ErrorDetail[];
  cause?: unknown;
  /** Whether an `internal_error`'s message is written for the client (a host's setup mistake and its fix), so the answer exposes it; still logged. */
  exposesMessage?: boolean;
}

/** Whether `Error.stackTraceLimit` may be set here (V8 and JavaScriptCore: yes; a frozen `Error`: no), which Node's own errors ask too. */
const canDropStack = Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit')?.writable === true;

/** The one error class: an expected failure with the spec's `code`, `message`, `status`; a 4xx is never logged, so it skips its 3-8 µs stack. */
export class PetstoreError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;
  readonly exposesMessage: boolean;

  constructor(code: ErrorCode, message: string, options: PetstoreErrorOptions = {}) {
    const stackTraceLimit = Error.stackTraceLimit;
    if (canDropStack && ERROR_CODES[code] < 500) Error.stackTraceLimit = 0;
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (canDropStack) Error.stackTraceLimit = stackTraceLimit;
    this.name = 'PetstoreError';
    this.code = code;
    this.status = ERROR_CODES[code];
    this.details = options.details;
    this.exposesMessage = options.exposesMessage ?? false;
  }

  /** The Error body for this error. */
  toJSON(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: this.message, status: this.status };
    if (this.details !== undefined) body.details = this.details;
    return body;
  }
}

const INTERNAL_ERROR_MESSAGE = 'The server failed to handle this request; the error has been logged.';

/** Whether a thrown value is an unexpected failure (anything but a PetstoreError, or one with status 500), whose detail belongs in the log only. */
export function isUnexpectedError(error: unknown): boolean {
  return !(error instanceof PetstoreError) || error.status === 500;
}

/**
 * Turns any thrown value into the Error body to send. PetstoreErrors keep their code and message;
 * anything else, and an `internal_error` not marked `exposesMessage`, becomes a generic `internal_error`
 * whose detail never reaches the client.
 */
export function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof PetstoreError && (error.code !== 'internal_error' || error.exposesMessage)) return error.toJSON();
  return { code: 'internal_error', message: INTERNAL_ERROR_MESSAGE, status: ERROR_CODES.internal_error };
}
