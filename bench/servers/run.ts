import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createBaselineServer } from './baseline.js';
import { createCeilingServer, parseCapturedAnswers } from './ceiling.js';
import { createFastifyServer } from './fastify.js';
import { createLeanFastifyServer } from './lean-fastify.js';

/** The comparison servers this script starts. */
const KINDS = ['baseline', 'fastify', 'lean-fastify', 'ceiling-plain', 'ceiling-same-headers'] as const;

async function listenNode(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function listenFastify(app: FastifyInstance, port: number): Promise<number> {
  await app.listen({ port, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

/** The ceilings answer the project's captured answers, from the JSON file the benchmark wrote. */
function capturedAnswers(path: string | undefined): ReturnType<typeof parseCapturedAnswers> {
  if (path === undefined) throw new Error('a ceiling server needs the file of captured answers as its third argument');
  return parseCapturedAnswers(readFileSync(path, 'utf8'));
}

async function start(kind: string, port: number, capturePath: string | undefined): Promise<number> {
  switch (kind) {
    case 'baseline': return listenNode(createBaselineServer(), port);
    case 'fastify': return listenFastify(createFastifyServer(), port);
    case 'lean-fastify': return listenFastify(createLeanFastifyServer(), port);
    case 'ceiling-plain': return listenNode(createCeilingServer(capturedAnswers(capturePath), 'plain'), port);
    case 'ceiling-same-headers': return listenNode(createCeilingServer(capturedAnswers(capturePath), 'same'), port);
    default: throw new Error(`unknown server kind ${kind}: ${KINDS.join(', ')}`);
  }
}

/**
 * Starts one comparison server in this process and prints `ready <port>` once it listens:
 * `node run.js <kind> <port> [captured-answers.json]`. The project's own server is not started
 * here: the benchmark runs it as `npm start` does.
 */
async function main(kind: string, port: number, capturePath: string | undefined): Promise<void> {
  process.stdout.write(`ready ${await start(kind, port, capturePath)}\n`);
}

// A clean exit on SIGTERM lets `--cpu-prof` write its profile when profiling a server.
process.on('SIGTERM', () => process.exit(0));

main(process.argv[2] ?? '', Number(process.argv[3] ?? 0), process.argv[4]).catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
