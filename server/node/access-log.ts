import type { IncomingMessage, ServerResponse } from 'node:http';

/** One access-log entry: no headers are logged at all, so credentials cannot leak into it. */
export interface AccessLogEntry {
  time: string;
  /** The id the answer carried in `X-Request-Id` (for a request never answered, its own valid one or a new one). */
  requestId: string;
  method: string;
  path: string;
  /** 0 when the answer was not sent in full (the client went away, or the request was dropped behind a closing answer). */
  status: number;
  durationMs: number;
}

/** The access-log line of a finished request; the path is logged without its query string. */
export function accessLogLine(request: IncomingMessage, response: ServerResponse, requestId: string, durationMs: number): string {
  const url = request.url ?? '';
  const queryStart = url.indexOf('?');
  const entry: AccessLogEntry = {
    time: new Date().toISOString(),
    requestId,
    method: request.method ?? '',
    path: queryStart === -1 ? url : url.slice(0, queryStart),
    status: response.writableFinished ? response.statusCode : 0,
    durationMs,
  };
  return JSON.stringify(entry);
}
