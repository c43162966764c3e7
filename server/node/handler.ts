import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createRequestCore } from '../core/index.js';
import type { CoreResponse, RequestCore, RequestCoreOptions } from '../core/index.js';
import { isOwnRequest, toCoreRequest } from './node-request.js';
import type { Observation } from './standalone/server-plugin.js';
import { writeResponse } from './responses.js';

/** Options of createHandler: those of the request core. */
export type HandlerOptions = RequestCoreOptions;

/** A `node:http` request listener; `next` (Express/Connect style) receives requests outside the base path. */
export type PetstoreHandler = (request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void) => void;

/** Creates the request listener for the interface [spec 4, 5, 7] for a `node:http` server or a framework; `next` gets other paths. */
export function createHandler(options: HandlerOptions): PetstoreHandler {
  const core = createRequestCore(options, 'createHandler');
  return function handlePetstore(request, response, next) {
    // Its connection closes after an earlier answer (a 413), so this request would run without ever being answered.
    if (isOnClosingConnection(request)) return;
    if (!isOwnRequest(request, core.isOwnTarget) && next !== undefined) return next();
    answerWithCore(core, request, response);
  };
}

/** Writes the core's answer, deciding first whether the connection may carry another request after it. */
function answer(request: IncomingMessage, response: ServerResponse, reply: CoreResponse, observation: Observation | undefined): void {
  observation?.answered(reply);
  // The client went away mid-body: there is nobody to answer.
  if (request.socket.destroyed) return;
  if (reply.closesConnection === true) {
    closeAfterAnswer(request);
    // Node then sends `Connection: close` and ends the connection after this answer.
    response.shouldKeepAlive = false;
  } else if (reply.status >= 400) {
    closeIfBodyUnread(request, response);
  }
  writeResponse(response, reply);
}

/** Answers a `node:http` request with the request core and this folder's care of the connection; `observation` learns when and what. */
export function answerWithCore(core: RequestCore, request: IncomingMessage, response: ServerResponse, observation?: Observation): void {
  observation?.enterCore();
  const reply = core.handle(toCoreRequest(request, response));
  if (reply instanceof Promise) void reply.then((settled) => answer(request, response, settled, observation));
  else answer(request, response, reply, observation);
}

/** Connections that end after an answer already decided (a 413, a refused pipeline): nothing behind it may run. */
const closing = new WeakSet<object>();

/**
 * Marks the request's connection as ending after the answer to this request: what the client still
 * sends is discarded unparsed, and the connection closes with a lingering close once that answer is out.
 */
export function closeAfterAnswer(request: IncomingMessage): void {
  const { socket } = request;
  if (closing.has(socket)) return;
  closing.add(socket);
  discardIncoming(socket);
  closeByLingering(socket);
}

/**
 * Whether a request arrived behind an answer that closes its connection. Node parses and dispatches
 * pipelined requests at once, so such a request would run (a create!) without ever being answered:
 * it must not run at all [RFC 9112 §9.6: no further requests once the server decided to close].
 */
export function isOnClosingConnection(request: IncomingMessage): boolean {
  return closing.has(request.socket);
}

/** Largest unread body still drained to keep a connection (bytes): a small one costs less than a new connection. */
const DRAINED_BODY_LIMIT = 65_536;

/**
 * Whether the request announced a body (RFC 9112 §6.3) that was not read and is large or of unknown
 * length (chunked). Decided on what the request declares, never on how much of it has arrived, so the
 * answer is the same whether the bytes came at once or one at a time.
 */
function hasCostlyUnreadBody(request: IncomingMessage): boolean {
  if (request.readableDidRead) return false;
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) > DRAINED_BODY_LIMIT);
}

/**
 * Makes an answer given before the body was read (401, 404, 405, 415) close its connection when that
 * body is large or chunked: Node would otherwise read and discard it, up to the request timeout, only
 * to reuse the connection. Small declared bodies are drained, so pipelining clients keep theirs.
 */
export function closeIfBodyUnread(request: IncomingMessage, response: ServerResponse): void {
  if (!hasCostlyUnreadBody(request)) return;
  closeAfterAnswer(request);
  response.shouldKeepAlive = false;
}

/**
 * Longest a connection keeps reading after its last answer before it is cut (ms): long enough for a
 * client still uploading to read the answer, short enough that it cannot hold the socket (nginx's
 * `lingering_time` bounds the same wait, at 30 s; Apache's at 30 s with 2 s between reads).
 */
export const LINGER_TIME = 5_000;

/** Most bytes a closing connection reads and discards before it is cut, so a client cannot keep it busy by sending forever. */
export const LINGER_BYTES = 4 * 1_048_576;

/** What a connection that closes after its answer has discarded so far, and whether its answer is out. */
interface Discarding {
  received: number;
  isLingering: boolean;
}

const discarding = new WeakMap<object, Discarding>();

/**
 * Whether the connection only discards what it receives: its answer is decided, and it closes after
 * it. Parser errors and timeouts on it are no news (its parser was detached on purpose).
 */
export function isDiscarding(socket: object): boolean {
  return discarding.has(socket);
}

/**
 * Makes sure the socket reads again. While Node's HTTP parser read the socket natively, the socket's
 * stream saw no data and still takes a read as under way, so resume() alone would not restart a
 * read Node had stopped for backpressure; an empty push() is the stream's public way to end that
 * read, and the stream then reads as any socket does.
 */
function keepReading(socket: Duplex): void {
  socket.resume();
  socket.push(Buffer.alloc(0));
}

/**
 * Stops parsing what the client still sends on a connection that closes after its answer: the rest
 * of a refused body, or requests behind it, are read and dropped without the HTTP parser's cost per
 * chunk (a body in one-byte chunks cost 50 times a plain one). Reading goes on, since a connection
 * closed with unread bytes is reset, and a reset can erase the answer before the client reads it
 * (RFC 9112 §9.6). Past LINGER_BYTES the connection stops reading before its answer is out, and is
 * cut after.
 */
export function discardIncoming(socket: Duplex): void {
  if (discarding.has(socket)) return;
  const state: Discarding = { received: 0, isLingering: false };
  discarding.set(socket, state);
  // Node's HTTP server reads a socket through its own 'data' listener (or natively, until any
  // 'data' listener is added, which hands reading back to the socket's stream): replacing it leaves
  // the parser with nothing more to parse, and keepReading() makes the stream flow.
  socket.removeAllListeners('data');
  socket.on('data', (chunk: Buffer) => {
    state.received += chunk.length;
    if (state.received <= LINGER_BYTES) return;
    if (state.isLingering) socket.destroy();
    else socket.pause();
  });
  keepReading(socket);
}

/**
 * Closes a connection whose answer has been handed to it the way nginx and Apache do (a lingering
 * close): stop sending (FIN after the answer), keep reading and discarding until the client closes
 * its side, for at most LINGER_TIME and LINGER_BYTES, then close.
 */
export function lingerAndClose(socket: Duplex): void {
  discardIncoming(socket);
  const state = discarding.get(socket);
  if (state === undefined || state.isLingering) return;
  state.isLingering = true;
  socket.end();
  if (state.received > LINGER_BYTES) return void socket.destroy();
  // Reading may have been paused for backpressure: what arrives must be read to be dropped.
  keepReading(socket);
  const timer = setTimeout(() => socket.destroy(), LINGER_TIME).unref();
  socket.once('close', () => clearTimeout(timer));
}

/**
 * Makes Node's own close after a connection's last answer (`Connection: close` from either side,
 * HTTP/1.0) a lingering close. Node ends such a connection with destroySoon(): flush, then destroy at
 * once, which resets it when the client is still sending, and the reset can erase the answer before
 * the client reads it (a 413 for an upload in progress was lost about 1 time in 20). Node offers no
 * public way to close differently (nodejs/node#12339, closed without a fix): its server calls the
 * socket's destroySoon() when the last response finishes, so this socket's own destroySoon is the
 * one seam, and the only one of Node's undocumented names this server uses. Tested on every Node
 * of the matrix by test/server/node/lingering-close.test.ts.
 */
export function closeByLingering(socket: Socket): void {
  socket.destroySoon = () => lingerAndClose(socket);
}
