/**
 * How a client call retries: up to `attempts` requests, the whole call within `totalTime`, each
 * request within `attemptTimeout`, with waits drawn by full jitter [AWS Architecture Blog,
 * "Exponential Backoff And Jitter", 2015] that a server's `Retry-After` [RFC 9110 §10.2.3] may
 * lengthen but never shorten. Times are in milliseconds.
 */
export interface RetryOptions {
  /** Most requests one call sends, the first included; 1 turns retries off. Default 30. */
  attempts?: number;
  /**
   * The budget of a whole call, in milliseconds from its first request: every request is cut off when
   * it runs out, and no wait is taken that would end past it. More than 0. Default 10,000.
   */
  totalTime?: number;
  /**
   * The longest one request may take, its answer's body read to the end included; a request gets the
   * smaller of this and what is left of `totalTime`. More than 0. Default 4,000.
   */
  attemptTimeout?: number;
  /** The ceiling of the first wait; each retry doubles it, up to `maxDelay`. Default 100. */
  baseDelay?: number;
  /** The highest ceiling of a wait drawn by the client (a `Retry-After` may ask for longer, never for shorter). Default 2,000. */
  maxDelay?: number;
  /** Waits this many milliseconds. Default: `setTimeout`. Tests pass one that does not wait. */
  sleep?: (milliseconds: number) => Promise<void>;
  /** A number in [0, 1) for the jitter. Default: `Math.random`. */
  random?: () => number;
  /** The time in milliseconds since the epoch, for the budget and `Retry-After` dates. Default: `Date.now`. */
  now?: () => number;
}

/** A retry policy with every option given. */
export type RetryPolicy = Required<RetryOptions>;

/**
 * The defaults of every retry option, in one place. With full jitter the 29 waits average well over
 * 10 s, so against an unreachable server the time budget ends a call, within 10 s of its first
 * request: an outage of most of that (a server restart, a database failover) is ridden out. That 29
 * waits drawn from these ceilings add up to under 5 s has a chance below 10⁻¹⁴. A request that gets
 * no answer is given up after 4 s, so a server that accepts and never answers still leaves room for
 * two more requests within the budget.
 */
export const RETRY_DEFAULTS: RetryPolicy = {
  attempts: 30,
  totalTime: 10_000,
  attemptTimeout: 4_000,
  baseDelay: 100,
  maxDelay: 2_000,
  sleep: (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds)),
  random: () => Math.random(),
  now: () => Date.now(),
};

/**
 * The statuses worth another request with the same idempotency key: a request the server timed out
 * (408), a request with the same key still in flight (409, draft-ietf-httpapi-idempotency-key-header
 * §2.7), too many requests (429), and a gateway or server that is briefly unable to answer (502, 503,
 * 504). Any other answer is the server's last word on the request.
 */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 409, 429, 502, 503, 504]);

/**
 * The statuses worth another request of a create sent without an idempotency key: only answers that
 * say the server did not act on it, a request it timed out before reading (408) and one it refused
 * for the rate (429). A 5xx or no answer leaves the create's fate unknown, and a repeat could store
 * a second pet, so those are never retried without a key.
 */
export const RETRYABLE_WITHOUT_KEY_STATUSES: ReadonlySet<number> = new Set([408, 429]);

/** The options of `base` with those of `options` over them; `false` is one attempt. Throws a TypeError for a budget no call could keep. */
export function retryPolicy(base: RetryPolicy, options: RetryOptions | false | undefined): RetryPolicy {
  if (options === false) return { ...base, attempts: 1 };
  const policy: RetryPolicy = { ...base, ...options };
  if (!(Number.isSafeInteger(policy.attempts) && policy.attempts >= 1)) {
    throw new TypeError('PetstoreClient: `retry.attempts` must be a whole number, at least 1');
  }
  const durations = [['totalTime', 'more than 0'], ['attemptTimeout', 'more than 0'], ['baseDelay', 'at least 0'], ['maxDelay', 'at least 0']] as const;
  for (const [name, least] of durations) {
    const value = policy[name];
    const isValid = Number.isFinite(value) && (least === 'at least 0' ? value >= 0 : value > 0);
    if (!isValid) throw new TypeError(`PetstoreClient: \`retry.${name}\` must be a number of milliseconds, ${least}`);
  }
  return policy;
}

/** RFC 9110 §10.2.3: `Retry-After` is `delay-seconds` (digits) or an HTTP-date. */
const DELAY_SECONDS = /^[0-9]+$/;
/** RFC 9110 §5.6.7: an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) or the obsolete RFC 850 form (`Sunday, 06-Nov-94 08:49:37 GMT`). */
const GMT_DATE = /^[A-Za-z]{3,9}, [0-9]{2}[ -][A-Za-z]{3}[ -][0-9]{2,4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$/;
/** RFC 9110 §5.6.7: the obsolete asctime form (`Sun Nov  6 08:49:37 1994`), in GMT though it does not say so. */
const ASCTIME_DATE = /^[A-Za-z]{3} [A-Za-z]{3} [ 0-9][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2} [0-9]{4}$/;

/** The time of an HTTP-date in milliseconds since the epoch, or NaN; `Date.parse` alone reads `-1` or `3.5` as dates. */
function parseHttpDate(text: string): number {
  if (GMT_DATE.test(text)) return Date.parse(text);
  return ASCTIME_DATE.test(text) ? Date.parse(`${text} GMT`) : Number.NaN;
}

/** The wait a `Retry-After` value asks for in milliseconds (0 for a date past), or undefined when it is absent or neither form. */
export function retryAfterDelay(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (DELAY_SECONDS.test(text)) return Number(text) * 1000;
  const date = parseHttpDate(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The wait before retry `retry` (1 for the first): full jitter, a uniform draw below the doubled ceiling. */
export function backoffDelay(policy: RetryPolicy, retry: number): number {
  // Past 2^52 the ceiling is maxDelay anyway; the bound keeps 0 × 2^n a number.
  const ceiling = Math.min(policy.maxDelay, policy.baseDelay * 2 ** Math.min(retry - 1, 52));
  return Math.floor(policy.random() * ceiling);
}

/**
 * The wait before retry `retry`: the client's own drawn backoff, or the server's `Retry-After` when that
 * asks for longer. A hint of 0 or a date past never shortens the wait: a server (or anything between)
 * that says "now" on every answer would otherwise turn a call into back-to-back requests.
 */
export function retryDelay(policy: RetryPolicy, retry: number, asked: number | undefined): number {
  const drawn = backoffDelay(policy, retry);
  return asked === undefined || asked < drawn ? drawn : asked;
}
