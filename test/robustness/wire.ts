import { connect } from 'node:net';
import type { Random } from './prng.js';

/** One HTTP/1.1 response as read off the socket. */
export interface WireResponse {
  status: number;
  /** Header names lower-cased; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: Buffer;
}

/** Everything one connection produced. */
export interface WireExchange {
  /** Final (non-1xx) responses, in order. */
  responses: WireResponse[];
  /** The connection was reset (ECONNRESET or EPIPE) before every expected response had arrived. */
  isResetEarly: boolean;
  /** The connection was reset after every expected response had arrived. */
  isResetLate: boolean;
  /** The server closed the connection (cleanly or not). */
  isClosedByServer: boolean;
  /** Nothing ended the exchange within the time allowed. */
  isTimedOut: boolean;
  /** Bytes received that did not form a complete response. */
  leftover: string;
}

/** How the request bytes are written. */
export type Delivery = 'whole' | 'bytewise' | { pieces: Random };

/** Options of exchange(). */
export interface ExchangeOptions {
  /** Method of each request sent, in order: HEAD responses have no body, and the count says when to stop. */
  methods: readonly string[];
  /** How the bytes are written. Default `whole`. */
  delivery?: Delivery;
  /** Gives up after this long (ms). Default 10000. */
  timeoutMs?: number;
  /** Stop writing after this many bytes and destroy the socket (a client that vanishes). */
  vanishAfter?: number;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** Parses complete responses from the front of `buffer`; returns them and the bytes left over. */
export function parseResponses(buffer: Buffer, methods: readonly string[], alreadyParsed = 0): { responses: WireResponse[]; rest: Buffer } {
  const responses: WireResponse[] = [];
  let rest = buffer;
  for (;;) {
    const headEnd = rest.indexOf(HEAD_END);
    if (headEnd === -1) break;
    const [statusLine = '', ...lines] = rest.subarray(0, headEnd).toString('latin1').split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
    if (match === null) break;
    const status = Number(match[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    const bodyStart = headEnd + HEAD_END.length;
    if (status >= 100 && status < 200) {
      rest = rest.subarray(bodyStart);
      continue;
    }
    const method = methods[alreadyParsed + responses.length];
    const hasNoBody = method === 'HEAD' || status === 204 || status === 304;
    const length = hasNoBody ? 0 : Number(headers['content-length'] ?? 'NaN');
    // Every response of this server is framed by Content-Length; anything else is left unparsed.
    if (!Number.isSafeInteger(length) || rest.length < bodyStart + length) break;
    responses.push({ status, headers, body: Buffer.from(rest.subarray(bodyStart, bodyStart + length)) });
    rest = rest.subarray(bodyStart + length);
  }
  return { responses, rest };
}

function pause(): Promise<void> {
  return new Promise((resume) => setImmediate(resume));
}

/** Splits bytes into the writes a delivery makes. */
function piecesOf(bytes: Buffer, delivery: Delivery): Buffer[] {
  if (delivery === 'whole') return [bytes];
  const pieces: Buffer[] = [];
  const random = delivery === 'bytewise' ? undefined : delivery.pieces;
  for (let start = 0; start < bytes.length;) {
    const size = random === undefined ? 1 : random.between(1, random.chance(0.5) ? 8 : 700);
    pieces.push(bytes.subarray(start, start + size));
    start += size;
  }
  return pieces;
}

/**
 * Opens a connection to 127.0.0.1:port, writes `bytes` as the delivery says, and reads responses
 * until the expected number arrived (or the server closed the connection, or time ran out).
 */
export function exchange(port: number, bytes: Buffer, options: ExchangeOptions): Promise<WireExchange> {
  const { methods } = options;
  const timeoutMs = options.timeoutMs ?? 10_000;
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    const responses: WireResponse[] = [];
    let pending: Buffer = Buffer.alloc(0);
    let isDone = false;
    const outcome = { isResetEarly: false, isResetLate: false, isClosedByServer: false, isTimedOut: false };
    const finish = (): void => {
      if (isDone) return;
      isDone = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ responses, ...outcome, leftover: pending.toString('latin1') });
    };
    const timer = setTimeout(() => {
      outcome.isTimedOut = true;
      finish();
    }, timeoutMs);
    socket.on('data', (data: Buffer) => {
      pending = pending.length === 0 ? data : Buffer.concat([pending, data]);
      const parsed = parseResponses(pending, methods, responses.length);
      responses.push(...parsed.responses);
      pending = parsed.rest;
      // Every answer arrived: wait no longer for the server to close a keep-alive connection.
      if (responses.length >= methods.length && pending.length === 0) setImmediate(finish);
    });
    socket.on('end', () => {
      outcome.isClosedByServer = true;
    });
    socket.on('close', finish);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') {
        if (responses.length >= methods.length) outcome.isResetLate = true;
        else outcome.isResetEarly = true;
      }
      outcome.isClosedByServer = true;
      finish();
    });
    socket.on('connect', async () => {
      let written = 0;
      for (const piece of piecesOf(bytes, options.delivery ?? 'whole')) {
        if (isDone || socket.destroyed || socket.writableEnded) return;
        if (options.vanishAfter !== undefined && written + piece.length > options.vanishAfter) {
          socket.write(piece.subarray(0, options.vanishAfter - written));
          await pause();
          return finish();
        }
        socket.write(piece);
        written += piece.length;
        if (options.delivery !== undefined && options.delivery !== 'whole') await pause();
      }
      if (options.vanishAfter !== undefined) {
        await pause();
        finish();
      }
    });
  });
}

/** The parts of a response that must not depend on how the request bytes arrived. */
export function comparable(response: WireResponse | undefined): string {
  if (response === undefined) return 'no response';
  const headers = { ...response.headers };
  delete headers['date'];
  delete headers['x-request-id'];
  delete headers['keep-alive'];
  let body = response.body.toString('utf8');
  // Ids, the Location that names them and the length they add depend on how many pets exist, not on the delivery.
  if (response.status === 201) {
    body = body.replace(/^\{"id":\d+,/, '{"id":ID,');
    delete headers['content-length'];
    if (headers['location'] !== undefined) headers['location'] = headers['location'].replace(/\d+$/, 'ID');
  }
  return JSON.stringify({ status: response.status, headers, body });
}
