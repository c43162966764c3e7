import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createBaselineServer } from './baseline.js';
import { createCeilingServer, parseCapturedAnswers } from './ceiling.js';
import { createFastifyServer, createLeanFastifyServer } from './fastify.js';

/** The ceilings answer the project's captured answers, from the JSON file the benchmark wrote. */
function capturedAnswers(path: string | undefined): ReturnType<typeof parseCapturedAnswers> {
  if (path === undefined) throw new Error('a ceiling server needs the file of captured answers as its third argument');
  return parseCapturedAnswers(readFileSync(path, 'utf8'));
}

/** Starts a comparison server of this kind on `port` of 127.0.0.1 and gives the port it listens on. */
async function start(kind: string, port: number, capturePath: string | undefined): Promise<number> {
  const fastify = kind === 'fastify' ? createFastifyServer() : kind === 'lean-fastify' ? createLeanFastifyServer() : undefined;
  if (fastify !== undefined) {
    await fastify.listen({ port, host: '127.0.0.1' });
    return (fastify.server.address() as AddressInfo).port;
  }
  const server = kind === 'baseline' ? createBaselineServer()
    : kind === 'ceiling-plain' || kind === 'ceiling-same-headers' ? createCeilingServer(capturedAnswers(capturePath), kind === 'ceiling-plain' ? 'plain' : 'same')
      : undefined;
  if (server === undefined) throw new Error(`unknown server kind ${kind}: baseline, fastify, lean-fastify, ceiling-plain, ceiling-same-headers`);
  await new Promise<void>((listening) => server.listen(port, '127.0.0.1', listening));
  return (server.address() as AddressInfo).port;
}

// A clean exit on SIGTERM lets `--cpu-prof` write its profile when profiling a server.
process.on('SIGTERM', () => process.exit(0));

/**
 * Starts one comparison server in this process and prints `ready <port>` once it listens:
 * `node run.js <kind> <port> [captured-answers.json]`. The project's own server is not started
 * here: the benchmark runs it as `npm start` does.
 */
start(process.argv[2] ?? '', Number(process.argv[3] ?? 0), process.argv[4]).then((port) => process.stdout.write(`ready ${port}\n`), (error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
