/** The part of a writable stream an output needs; `process.stdout` and `process.stderr` have it. */
export interface OutputStream {
  write(chunk: string): boolean;
  /** What the stream holds that its reader has not taken yet. */
  readonly writableLength: number;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** Options of createOutput. */
export interface OutputOptions {
  /** What the stream may hold unread before a line is dropped (characters; bytes for ASCII lines). Default `MAX_PENDING_OUTPUT`. */
  maxPending?: number;
}

/** An output that never throws, never stops the server, and never holds more than its bound. */
export interface Output {
  /** Writes the text, or drops it when the stream failed or holds too much unread; never throws. */
  write(text: string): void;
  /** Calls `listener` for every line dropped from now on: the metric's counter. */
  onDrop(listener: () => void): void;
}

/**
 * What a stream may hold unread before lines are dropped: 1 MiB, about 1,300 log lines of 760 bytes.
 * A reader that stalls costs the server this much memory and no more.
 */
export const MAX_PENDING_OUTPUT = 1024 * 1024;

/** A JSON object on one line, which a `dropped` field can join. */
function isJsonLine(text: string): boolean {
  return text.startsWith('{') && text.endsWith('}\n');
}

/**
 * Wraps a stream whose reader may go away (`| head`, a restarted sidecar) or stall. A write error
 * (EPIPE) marks the stream failed instead of crashing the process, and every later line is dropped.
 * A line that would take what the stream holds unread past the bound is dropped. Drops are counted,
 * and the next JSON line that gets through carries their number as `dropped`.
 */
export function createOutput(stream: OutputStream, options: OutputOptions = {}): Output {
  const maxPending = options.maxPending ?? MAX_PENDING_OUTPUT;
  const listeners: (() => void)[] = [];
  let hasFailed = false;
  let droppedSinceLast = 0;
  stream.on('error', () => {
    hasFailed = true;
  });

  function drop(): void {
    droppedSinceLast++;
    for (const listener of listeners) listener();
  }

  return {
    write(text) {
      if (hasFailed || stream.writableLength + text.length > maxPending) return drop();
      let line = text;
      if (droppedSinceLast > 0 && isJsonLine(text)) {
        const body = text.slice(0, -2);
        line = `${body}${body === '{' ? '' : ','}"dropped":${droppedSinceLast}}\n`;
        droppedSinceLast = 0;
      }
      try {
        stream.write(line);
      } catch {
        // A stream destroyed under us may throw instead of emitting 'error'.
        hasFailed = true;
        drop();
      }
    },
    onDrop(listener) {
      listeners.push(listener);
    },
  };
}
