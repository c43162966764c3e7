import type { LogEntry, Logger, LogLevel } from '../../server/node/index.js';
import { LOG_LEVELS } from './settings.js';

/** Options of createLogWriter. */
export interface LogWriterOptions {
  /** The least severe level written. */
  level: LogLevel;
  /** Receives each line, newline included. */
  write: (line: string) => void;
  /** The clock; a seam for tests. Default: the system clock. */
  now?: () => Date;
}

/** A field's value as JSON can carry it: an Error as its stack (the server's `error` fields are stacks already). */
function loggable(_key: string, value: unknown): unknown {
  if (value instanceof Error) return value.stack ?? `${value.name}: ${value.message}`;
  return typeof value === 'bigint' ? value.toString() : value;
}

/**
 * A Logger writing one JSON line per event: `time` (ISO 8601, UTC), `level`, `msg`, `requestId`
 * where there is one, then the entry's other fields. Entries below `level` are dropped.
 */
export function createLogWriter(options: LogWriterOptions): Logger {
  const threshold = LOG_LEVELS.indexOf(options.level);
  const now = options.now ?? (() => new Date());
  return (entry: LogEntry) => {
    if (LOG_LEVELS.indexOf(entry.level) > threshold) return;
    const { level, msg, requestId, ...fields } = entry;
    const head = { time: now().toISOString(), level, msg, ...(requestId === undefined ? {} : { requestId }) };
    let line: string;
    try {
      // `time` is the writer's: a field of that name cannot replace it, and the head's keys come first.
      line = JSON.stringify({ ...head, ...fields, time: head.time }, loggable);
    } catch (error) {
      // A field JSON cannot hold (a cycle): the event is still written, without its fields.
      line = JSON.stringify({ ...head, logError: `fields not serialisable: ${error instanceof Error ? error.message : String(error)}` });
    }
    options.write(`${line}\n`);
  };
}
