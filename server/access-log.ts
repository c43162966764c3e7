import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** One access-log entry: no headers are logged at all, so credentials cannot leak into it. */
export interface AccessLogEntry {
  time: string;
  requestId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
}

/** Records one JSON line per finished request; the path is logged without its query string. */
export function logAccess(request: IncomingMessage, response: ServerResponse, write: (line: string) => void): void {
  const started = process.hrtime.bigint();
  const requestId = randomUUID();
  response.setHeader('X-Request-Id', requestId);
  response.once('close', () => {
    const url = request.url ?? '';
    const queryStart = url.indexOf('?');
    const entry: AccessLogEntry = {
      time: new Date().toISOString(),
      requestId,
      method: request.method ?? '',
      path: queryStart === -1 ? url : url.slice(0, queryStart),
      status: response.writableFinished ? response.statusCode : 0,
      durationMs: Number(process.hrtime.bigint() - started) / 1e6,
    };
    write(JSON.stringify(entry));
  });
}
