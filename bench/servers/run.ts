import { createBaselineServer } from './baseline.js';
import { createFastifyServer } from './fastify.js';

/**
 * Starts one comparison server in this process and prints `ready <port>` once it listens. The
 * project's own server is not started here: the benchmark runs it as `npm start` does.
 */
async function main(kind: string, port: number): Promise<void> {
  if (kind === 'baseline') {
    const server = createBaselineServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    process.stdout.write(`ready ${(server.address() as import('node:net').AddressInfo).port}\n`);
  } else if (kind === 'fastify') {
    const app = createFastifyServer();
    await app.listen({ port, host: '127.0.0.1' });
    process.stdout.write(`ready ${(app.server.address() as import('node:net').AddressInfo).port}\n`);
  } else {
    throw new Error(`unknown server kind ${kind}: baseline or fastify`);
  }
}

// A clean exit on SIGTERM lets `--cpu-prof` write its profile when profiling a server.
process.on('SIGTERM', () => process.exit(0));

main(process.argv[2] ?? '', Number(process.argv[3] ?? 0)).catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
