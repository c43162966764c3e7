// The typed client against a running server: the same operations as the engine, over HTTP, paging with an iterator.
// Run: npx tsx examples/remote-client.ts
//      (against your server: PETSTORE_URL=http://127.0.0.1:8080/v1 PETSTORE_API_KEY=secret-key npx tsx examples/remote-client.ts;
//       without them it starts a server of its own on a free port and stops it at the end)
// From an installed package the imports read:
//   import { PetstoreClient } from 'petstore-reference/client';
//   import { createPetstore, PetstoreError } from 'petstore-reference';
//   import { startServer } from 'petstore-reference/server';
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { PetstoreClient } from '../extras/client/index.js';
import { createPetstore, PetstoreError } from '../lib/index.js';
import { startServer } from '../server/node/index.js';

/** Where the server is and with which key, or undefined to start one here. */
export interface RemoteTarget {
  url: string;
  apiKey: string;
}

/** Adds 25 pets through the client, reads them back page by page, and shows a deprecation notice and an error. */
export async function main(target: RemoteTarget | undefined, log: (line: string) => void = console.log): Promise<void> {
  const apiKey = target?.apiKey ?? randomBytes(18).toString('base64url');
  const running = target === undefined ? await startServer({ store: createPetstore(), apiKeys: [apiKey], port: 0 }) : undefined;
  try {
    const client = new PetstoreClient({
      baseUrl: target?.url ?? running?.url ?? '',
      apiKey,
      onDeprecation: (notice) => log(`deprecated: ${notice.operation}, sunset ${notice.sunsetAt?.toISOString() ?? 'unknown'}, successor ${notice.successor ?? 'none'}`),
    });
    const created = [];
    for (let index = 1; index <= 25; index++) {
      created.push(await client.createPet({ name: `Pet ${index}`, categoryId: 1, status: index % 5 === 0 ? 'sold' : 'available' }));
    }
    log(`created ${created.length} pets`);

    // Follows `Link: rel="next"` until the last page [spec 4.1: `limit`], plus the `after` cursor.
    let seen = 0;
    for await (const pet of client.pets({ pageSize: 10 })) seen += pet.name.startsWith('Pet ') ? 1 : 0;
    log(`iterated ${seen} pets in pages of 10`);
    let sold = 0;
    for await (const pet of client.pets({ status: 'sold' })) sold += pet.status === 'sold' ? 1 : 0;
    log(`sold: ${sold}`);

    const first = created[0];
    if (first !== undefined) log(`getPet(${first.id}): ${(await client.getPet(first.id)).name}`);
    try {
      await client.getPet(Number.MAX_SAFE_INTEGER);
    } catch (error) {
      if (!(error instanceof PetstoreError)) throw error;
      log(`error: ${error.status} ${error.code}`);
    }
  } finally {
    await running?.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const url = process.env['PETSTORE_URL'];
  const apiKey = process.env['PETSTORE_API_KEY'];
  await main(url === undefined || apiKey === undefined ? undefined : { url, apiKey });
}
