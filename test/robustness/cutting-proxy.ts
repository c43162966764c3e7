import { createConnection, createServer } from 'node:net';
import type { Socket } from 'node:net';
import { Random } from './prng.js';

/** Options of startCuttingProxy. */
export interface CuttingProxyOptions {
  /** The loopback port of the server behind, read for every new connection. */
  targetPort: () => number;
  /** The share of answers cut, from 0 to 1. */
  cutShare: number;
  /** Seed of the draws that pick the answers to cut. */
  seed: number;
  /** Most client connections open at once; a connection past it is closed at once. Default 64. */
  maxConnections?: number;
  /** Milliseconds after which the proxy closes itself, should its user never do so. Default 120,000. */
  lifetime?: number;
}

/** A running proxy and what it did. */
export interface CuttingProxy {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Exchanges whose request went through and whose answer was cut before its first byte reached the client. */
  cuts: () => number;
  /** Exchanges whose answer went through. */
  passed: () => number;
  /** Stops listening and cuts every open connection; safe to call twice. */
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 in front of a server on 127.0.0.1 that loses a share of the answers:
 * every exchange's request is forwarded whole, and when the server's answer starts, a seeded draw
 * decides whether to pass it or to cut both connections. A cut answer is one the server acted on
 * (a POST stored its pet) that the client never gets, as when a network breaks at the worst time.
 */
export async function startCuttingProxy(options: CuttingProxyOptions): Promise<CuttingProxy> {
  const random = new Random(options.seed);
  const sockets = new Set<Socket>();
  let cuts = 0;
  let passed = 0;
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: options.targetPort() });
    sockets.add(client).add(upstream);
    let isAwaitingAnswer = false;
    const closeBoth = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('data', (chunk: Buffer) => {
      isAwaitingAnswer = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (isAwaitingAnswer) {
        isAwaitingAnswer = false;
        if (random.chance(options.cutShare)) {
          cuts++;
          closeBoth();
          return;
        }
        passed++;
      }
      client.write(chunk);
    });
    for (const socket of [client, upstream]) {
      socket.on('error', closeBoth);
      socket.on('close', closeBoth);
      socket.on('end', closeBoth);
    }
  });
  // net.Server closes a connection past this at once.
  server.maxConnections = options.maxConnections ?? 64;
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no TCP address');
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      clearTimeout(lifetime);
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    });
    return closing;
  };
  const lifetime = setTimeout(() => void close(), options.lifetime ?? 120_000);
  lifetime.unref();
  return { origin: `http://127.0.0.1:${address.port}`, cuts: () => cuts, passed: () => passed, close };
}
