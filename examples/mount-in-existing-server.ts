// Mounting the HTTP interface in a host `node:http` server beside the host's own routes.
// Run: npx tsx examples/mount-in-existing-server.ts   (PORT picks the port, default 0 = any free one;
//      PETSTORE_API_KEY sets the key, otherwise one is generated and printed; Ctrl-C stops it)
// From an installed package the imports read:
//   import { createPetstore } from 'petstore-reference';
//   import { createHandler } from 'petstore-reference/server';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { createPetstore } from '../lib/index.js';
import { createHandler } from '../server/node/index.js';

/** Options of startHost. */
export interface HostOptions {
  apiKeys: readonly string[];
  /** Default 0: any free port. */
  port?: number;
}

/** The host's own origin, and how to stop it. */
export interface RunningHost {
  origin: string;
  close(): Promise<void>;
}

/** Starts a host server that answers `/status` itself, serves the Petstore under `/v1`, and 404s the rest. */
export async function startHost(options: HostOptions): Promise<RunningHost> {
  const store = createPetstore();
  const petstore = createHandler({ store, apiKeys: options.apiKeys });
  const server = createServer((request, response) => {
    if (request.url === '/status') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('host ok\n');
      return;
    }
    // Requests outside /v1 come back through `next`, as in Express or Connect.
    petstore(request, response, () => {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not a host route\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await store.close();
    },
  };
}

async function main(): Promise<void> {
  const apiKey = process.env['PETSTORE_API_KEY'] ?? randomBytes(18).toString('base64url');
  const host = await startHost({ apiKeys: [apiKey], port: Number(process.env['PORT'] ?? 0) });
  process.stdout.write(`host listening on ${host.origin} (own route: /status; Petstore: /v1/pets; key: ${apiKey})\n`);
  const stop = (): void => void host.close().then(() => process.exit(0));
  process.once('SIGINT', stop).once('SIGTERM', stop);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
