import type { IncomingMessage, ServerResponse } from 'node:http';
import { originForm } from '../../server/core/index.js';

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

/** A scheme and authority before the path (`ftp://user:secret@host`), of any scheme: what an absolute-form target starts with. */
const SCHEME_AND_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/** Userinfo ending an authority-form target (`user:secret@host:443`). */
const USERINFO = /^[^/?#]*@/;

/**
 * The path of a request target, and only the path: no query (it may hold personal data), and no
 * scheme or authority, whose userinfo (`http://admin:secret@host/v1/pets`) may hold a password.
 */
export function loggedPath(target: string): string {
  let path = originForm(target);
  if (path.charCodeAt(0) !== 47) path = path.replace(SCHEME_AND_AUTHORITY, '').replace(USERINFO, '');
  const end = path.search(/[?#]/);
  return end === -1 ? path : path.slice(0, end);
}

/** The access-log line of a finished request; the path is logged alone, without query, scheme or authority. */
export function accessLogLine(request: IncomingMessage, response: ServerResponse, requestId: string, durationMs: number): string {
  const entry: AccessLogEntry = {
    time: new Date().toISOString(),
    requestId,
    method: request.method ?? '',
    path: loggedPath(request.url ?? ''),
    status: response.writableFinished ? response.statusCode : 0,
    durationMs,
  };
  return JSON.stringify(entry);
}
