import type { LogEntry, Logger } from '../../server/node/index.js';
import { createLogWriter } from './log-writer.js';
import type { LogWriterOptions } from './log-writer.js';
import { LOG_LEVELS } from './settings.js';

/** What starts every human-readable line the command writes on stderr. */
export const HUMAN_PREFIX = 'petstore-reference: ';

/** Options of createStartupLog: those of the JSON log it writes through, whose `write` receives each line of stderr. */
export type StartupLogOptions = LogWriterOptions;

/**
 * The server's log while it starts. stderr carries JSON lines only once the server listens, and only
 * human-readable lines when it cannot start, never both: so the events of the start are held until
 * one or the other is known.
 */
export interface StartupLog {
  log: Logger;
  /** The server listens: the held events are written as JSON lines, and every later one at once. */
  release(): void;
  /** The server will not start: the held warnings and errors as human-readable lines, newline included; the rest is dropped. */
  abandon(): string[];
}

/** An event as one human-readable line: `petstore-reference: warning: <msg> (<field>: <value>, …)`. */
export function humanLine(entry: LogEntry): string {
  const { level, msg, requestId: _requestId, ...fields } = entry;
  const pairs = Object.entries(fields).map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return `${HUMAN_PREFIX}${level === 'warn' ? 'warning' : level}: ${msg}${pairs.length === 0 ? '' : ` (${pairs.join(', ')})`}\n`;
}

/** A log that holds the events of the start until the server listens or gives up. */
export function createStartupLog(options: StartupLogOptions): StartupLog {
  const threshold = LOG_LEVELS.indexOf(options.level);
  const held: string[] = [];
  const warnings: LogEntry[] = [];
  let isHolding = true;
  const writer = createLogWriter({ ...options, write: (line) => (isHolding ? void held.push(line) : options.write(line)) });
  return {
    log(entry) {
      const rank = LOG_LEVELS.indexOf(entry.level);
      if (isHolding && rank <= LOG_LEVELS.indexOf('warn') && rank <= threshold) warnings.push(entry);
      writer(entry);
    },
    release() {
      isHolding = false;
      for (const line of held.splice(0)) options.write(line);
      warnings.length = 0;
    },
    abandon() {
      held.length = 0;
      return warnings.splice(0).map(humanLine);
    },
  };
}
