import { PetstoreError } from '../../lib/index.js';
import type { Petstore } from '../../lib/index.js';

/** Time the storage gets to answer a readiness check before `/readyz` fails (ms). */
export const DEFAULT_READY_TIMEOUT = 2_000;

/**
 * What `/readyz` answers for: `storage`, the process and its storage (an outage of the storage takes
 * the process out of its balancer; of a shared database, every replica at once), or `process`, the
 * process alone (it stays in through a storage outage and answers each request with the storage's
 * 503 and its reason). Shutdown fails readiness in both.
 */
export const READINESS_MODES = ['storage', 'process'] as const;

/** One of READINESS_MODES. */
export type ReadinessMode = (typeof READINESS_MODES)[number];

/** The readiness a server has unless told otherwise: the storage is asked, as it always was. */
export const DEFAULT_READINESS: ReadinessMode = 'storage';

/** What a readiness check asks beside the storage. */
export interface ReadinessOptions {
  /** Whether shutdown has begun: then the answer is "not ready" at once, so a load balancer stops sending. */
  isClosing(): boolean;
  /** Time the storage gets to answer (ms). */
  timeout: number;
  /** Whether the storage is asked at all (`storage`) or the process alone answers (`process`). Default `storage`. */
  mode?: ReadinessMode;
}

/**
 * A failed check as the 503 it means. A storage's own `unavailable` keeps its message (the reason and
 * the advice) but not its cause: probes repeat every few seconds, and the storage logs its failures
 * itself, once per episode. Anything else is unexpected, so its detail goes to the log.
 */
function asUnavailable(error: unknown): PetstoreError {
  if (error instanceof PetstoreError && error.status === 503) return new PetstoreError('unavailable', error.message);
  return new PetstoreError('unavailable', 'The storage failed its readiness check; the error has been logged', { cause: error });
}

/**
 * Resolves when the server is ready for traffic: shutdown has not begun and, in the `storage` mode,
 * the storage answers its readiness check within the timeout (`Petstore.checkReady`, which may also
 * bring a storage back from a passing fault, so it is asked every time, never cached). Rejects with
 * `unavailable` saying why. The `process` mode never asks the storage: its state reaches clients in
 * the answers to their requests, and a create or list still lets it recover.
 */
export async function checkReadiness(store: Petstore, options: ReadinessOptions): Promise<void> {
  if (options.isClosing()) throw new PetstoreError('unavailable', 'The server is shutting down');
  if (options.mode === 'process') return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PetstoreError('unavailable', `The storage did not answer the readiness check within ${options.timeout} ms`)), options.timeout);
  });
  try {
    await Promise.race([store.checkReady(), expired]);
  } catch (error) {
    throw asUnavailable(error);
  } finally {
    clearTimeout(timer);
  }
}
