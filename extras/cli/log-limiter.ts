import { STORAGE_FAILED_MSG, UNEXPECTED_ERROR_MSG } from '../../server/core/index.js';
import type { LogEntry, Logger } from '../../server/node/index.js';

/** How often a failure that keeps repeating is summed up in one line (ms). */
export const REPEAT_INTERVAL = 10_000;

/** The events written once per interval at most: one per failed request, so an outage or a hot bug multiplies them. */
const REPEATING_MSGS: readonly string[] = [STORAGE_FAILED_MSG, UNEXPECTED_ERROR_MSG];

/** Runs `callback` after `ms`; the seam for tests, which run it by hand. */
export type Schedule = (callback: () => void, ms: number) => void;

/** Options of createLogLimiter. */
export interface LogLimiterOptions {
  /** The summing-up interval (ms). Default `REPEAT_INTERVAL`. */
  interval?: number;
  /** Default: a timer that does not keep the process alive. */
  schedule?: Schedule;
}

/** A Logger that sums up repeated failures, and writes out what it holds on `flush()`. */
export interface LogLimiter {
  log: Logger;
  /** Writes the count held for the current interval now, as at shutdown. */
  flush(): void;
}

/** What is held for one repeating event: whether its interval is open, and what was left out in it. */
interface Repeats {
  isOpen: boolean;
  more: number;
  lastRequestId: string | undefined;
  level: LogEntry['level'];
}

function unrefTimer(callback: () => void, ms: number): void {
  const timer = setTimeout(callback, ms);
  // A pending summary never holds the process open; the CLI flushes at shutdown.
  timer.unref();
}

/**
 * Wraps `log` so a failure that repeats on every request is written in full once (with its cause),
 * and then as one line per interval that counts the rest (`more`), for as long as it keeps repeating.
 * An interval in which it did not repeat ends the run: the next occurrence is written in full again.
 * Every other event passes through.
 */
export function createLogLimiter(log: Logger, options: LogLimiterOptions = {}): LogLimiter {
  const interval = options.interval ?? REPEAT_INTERVAL;
  const schedule = options.schedule ?? unrefTimer;
  const held = new Map<string, Repeats>();

  function summarize(msg: string, repeats: Repeats): void {
    if (repeats.more === 0) return;
    log({
      level: repeats.level, msg: 'The same failure repeated; not logged one by one', failure: msg, more: repeats.more,
      intervalSeconds: interval / 1000, ...(repeats.lastRequestId === undefined ? {} : { lastRequestId: repeats.lastRequestId }),
    });
    repeats.more = 0;
  }

  function endInterval(msg: string, repeats: Repeats): void {
    if (repeats.more === 0) {
      repeats.isOpen = false;
      return;
    }
    summarize(msg, repeats);
    schedule(() => endInterval(msg, repeats), interval);
  }

  return {
    log(entry) {
      if (!REPEATING_MSGS.includes(entry.msg)) return log(entry);
      let repeats = held.get(entry.msg);
      if (repeats === undefined) held.set(entry.msg, (repeats = { isOpen: false, more: 0, lastRequestId: undefined, level: entry.level }));
      if (repeats.isOpen) {
        repeats.more++;
        repeats.lastRequestId = entry.requestId;
        return;
      }
      log(entry);
      repeats.isOpen = true;
      schedule(() => endInterval(entry.msg, repeats), interval);
    },
    flush() {
      for (const [msg, repeats] of held) summarize(msg, repeats);
    },
  };
}
