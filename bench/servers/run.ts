import { createPetstore } from '../../lib/index.js';
import { startServer } from '../../server/index.js';
import { createBaselineServer } from './baseline.js';
import { createFastifyServer } from './fastify.js';
import { BENCH_KEY, prefillPets } from './fixture.js';

/** Starts one benchmark server in this process and prints `ready <port>` once it listens. */
async function main(kind: string, port: number): Promise<void> {
  if (kind === 'project') {
    const store = createPetstore();
    for (const pet of prefillPets()) await store.createPet(pet);
    const running = await startServer({ store, apiKeys: [BENCH_KEY], port, host: '127.0.0.1' });
    process.stdout.write(`ready ${new URL(running.url).port}\n`);
  } else if (kind === 'baseline') {
    const server = createBaselineServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    process.stdout.write(`ready ${(server.address() as import('node:net').AddressInfo).port}\n`);
  } else if (kind === 'fastify') {
    const app = createFastifyServer();
    await app.listen({ port, host: '127.0.0.1' });
    process.stdout.write(`ready ${(app.server.address() as import('node:net').AddressInfo).port}\n`);
  } else {
    throw new Error(`unknown server kind ${kind}`);
  }
}

// A clean exit on SIGTERM lets `--cpu-prof` write its profile when profiling a server.
process.on('SIGTERM', () => process.exit(0));

main(process.argv[2] ?? '', Number(process.argv[3] ?? 0)).catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
