import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

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
