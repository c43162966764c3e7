import { connect } from 'node:net';
import type { Socket } from 'node:net';

// The hostile side of hostile-shapes.test.ts, in a process of its own as an attacker's would be, so
// the honest client's second is not spent on the attacker's sockets: forked with the port, the count
// and the shape (JSON) as arguments; it tells its parent `opened` once every socket has written, and
// on `stop` closes them all and answers with how many times it reconnected.

/** A hostile connection: what it sends once connected, whether it reads, and whether it comes back when cut. */
export interface Hostile {
  text: string;
  /** Bytes written every 100 ms after the text, for ever (a trickle). */
  trickle?: string;
  isReading: boolean;
  isReconnecting?: boolean;
}

const [portText = '0', countText = '0', shapeText = '{}'] = process.argv.slice(2);
const port = Number(portText);
const count = Number(countText);
const hostile = JSON.parse(shapeText) as Hostile;
const sockets = new Set<Socket>();
let isStopped = false;
let reconnects = 0;

function open(): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    sockets.add(socket);
    let timer: NodeJS.Timeout | undefined;
    socket.on('error', () => undefined);
    if (!hostile.isReading) socket.pause();
    else socket.on('data', () => undefined);
    socket.once('connect', () => {
      socket.write(hostile.text);
      if (hostile.trickle !== undefined) timer = setInterval(() => socket.write(hostile.trickle as string), 100);
      resolve();
    });
    socket.once('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
      resolve();
      if (hostile.isReconnecting === true && !isStopped) {
        reconnects++;
        void open();
      }
    });
  });
}

process.on('message', (message) => {
  if (message !== 'stop') return;
  isStopped = true;
  for (const socket of sockets) socket.destroy();
  process.send?.({ reconnects }, () => process.exit(0));
});
for (let start = 0; start < count; start += 250) await Promise.all(Array.from({ length: Math.min(250, count - start) }, open));
process.send?.('opened');
