import { STORAGE_FAILED_MSG, UNEXPECTED_ERROR_MSG } from '../../server/core/index.js';
import type { PetStorage } from '../../lib/index.js';
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
  /** The clock outages are measured by (ms); a seam for tests. Default `Date.now`. */
  now?: () => number;
}

/** A Logger that sums up repeated failures, and writes out what it holds on `flush()`. */
export interface LogLimiter {
  log: Logger;
  /** A storage operation answered: ends an outage in progress with a "recovered" event. Cheap when there is none. */
  storageAnswered(): void;
  /** Writes the count held for the current interval now, as at shutdown. */
  flush(): void;
}

/** What is held for one repeating failure and cause: whether its interval is open, and what was left out in it. */
interface Repeats {
  msg: string;
  /** The cause's code, when the event gave one. */
  code: string | undefined;
  isOpen: boolean;
  more: number;
  lastRequestId: string | undefined;
  level: LogEntry['level'];
}

/** A storage outage in progress: since the first failure, how many, and their causes. */
interface Outage {
  startedAt: number;
  failures: number;
  causes: Set<string>;
}

/** The `msg` of the event that ends a storage outage. */
export const STORAGE_RECOVERED_MSG = 'The storage recovered';

function unrefTimer(callback: () => void, ms: number): void {
  const timer = setTimeout(callback, ms);
  // A pending summary never holds the process open; the CLI flushes at shutdown.
  timer.unref();
}

/** The code of a failure event's cause (a SQLSTATE, ENOSPC), when it has one. */
function codeOf(entry: LogEntry): string | undefined {
  const code = entry['causeCode'];
  return typeof code === 'string' ? code : undefined;
}

/** What a failure event's repeats are grouped by: its cause's code, else what the client was told. */
function causeKey(entry: LogEntry): string {
  const error = entry['error'];
  return codeOf(entry) ?? (typeof error === 'string' ? error : '');
}

/**
 * Wraps `log` so a failure that repeats on every request is written in full once per cause (its
 * cause's code: a SQLSTATE or an error code), and then as one line per interval that counts the rest
 * (`more`), for as long as it keeps repeating; a new cause is written in full at once. An interval
 * in which it did not repeat ends the run: the next occurrence is written in full again. Storage
 * failures open an outage that `storageAnswered()` closes with one "recovered" event giving its
 * length. Every other event passes through.
 */
export function createLogLimiter(log: Logger, options: LogLimiterOptions = {}): LogLimiter {
  const interval = options.interval ?? REPEAT_INTERVAL;
  const schedule = options.schedule ?? unrefTimer;
  const now = options.now ?? Date.now;
  const held = new Map<string, Repeats>();
  let outage: Outage | undefined;

  function summarize(repeats: Repeats): void {
    if (repeats.more === 0) return;
    log({
      level: repeats.level, msg: 'The same failure repeated; not logged one by one', failure: repeats.msg,
      ...(repeats.code === undefined ? {} : { causeCode: repeats.code }),
      more: repeats.more, intervalSeconds: interval / 1000, ...(repeats.lastRequestId === undefined ? {} : { lastRequestId: repeats.lastRequestId }),
    });
    repeats.more = 0;
  }

  function endInterval(repeats: Repeats): void {
    if (repeats.more === 0) {
      repeats.isOpen = false;
      return;
    }
    summarize(repeats);
    schedule(() => endInterval(repeats), interval);
  }

  function noteOutage(entry: LogEntry, code: string | undefined): void {
    if (entry.msg !== STORAGE_FAILED_MSG) return;
    outage ??= { startedAt: now(), failures: 0, causes: new Set() };
    outage.failures++;
    if (code !== undefined) outage.causes.add(code);
  }

  return {
    log(entry) {
      if (!REPEATING_MSGS.includes(entry.msg)) return log(entry);
      const code = codeOf(entry);
      noteOutage(entry, code);
      const key = `${entry.msg}\u0000${causeKey(entry)}`;
      let repeats = held.get(key);
      if (repeats === undefined) held.set(key, (repeats = { msg: entry.msg, code, isOpen: false, more: 0, lastRequestId: undefined, level: entry.level }));
      if (repeats.isOpen) {
        repeats.more++;
        repeats.lastRequestId = entry.requestId;
        return;
      }
      log(entry);
      repeats.isOpen = true;
      const opened = repeats;
      schedule(() => endInterval(opened), interval);
    },
    storageAnswered() {
      if (outage === undefined) return;
      const ended = outage;
      outage = undefined;
      // The counts held for the outage's causes come first, so the log reads in order; its next failure is written in full.
      for (const [key, repeats] of held) {
        if (repeats.msg !== STORAGE_FAILED_MSG) continue;
        summarize(repeats);
        held.delete(key);
      }
      log({
        level: 'info', msg: STORAGE_RECOVERED_MSG, outageSeconds: Math.max(0, now() - ended.startedAt) / 1000, failures: ended.failures,
        causeCodes: [...ended.causes],
      });
    },
    flush() {
      for (const repeats of held.values()) summarize(repeats);
    },
  };
}

/**
 * A storage that tells `limiter` each time one of its operations answers, so that an outage the
 * limiter saw ends with its "recovered" event. Failures need no wrapper: the server logs them.
 */
export function observeStorage(storage: PetStorage, limiter: Pick<LogLimiter, 'storageAnswered'>): PetStorage {
  const answered = <T>(value: T): T => {
    limiter.storageAnswered();
    return value;
  };
  const observed: PetStorage = {
    insert: (pet) => storage.insert(pet).then(answered),
    get: (id) => storage.get(id).then(answered),
    list: (query) => storage.list(query).then(answered),
  };
  const { insertOnce, checkReady, close, usage } = storage;
  if (insertOnce !== undefined) observed.insertOnce = (pet, idempotency) => insertOnce.call(storage, pet, idempotency).then(answered);
  // A readiness probe that passes is an answer too: a balancer's probes end an outage on an idle server.
  if (checkReady !== undefined) observed.checkReady = () => checkReady.call(storage).then(answered);
  if (close !== undefined) observed.close = () => close.call(storage);
  if (usage !== undefined) observed.usage = () => usage.call(storage);
  return observed;
}
