/**
 * What each remembered idempotency key costs (issue 20), measured rather than estimated: heap bytes
 * per key in the memory and file storages, journal bytes per keyed record, and the PostgreSQL
 * table and unique index per keyed row. Each figure is the difference between a storage filled with
 * pets created with a key and one filled with the same pets created without one, in the same run.
 *
 *   npm run bench:idempotency -- [--pets 100000]
 *
 * Keys are `crypto.randomUUID()` strings (36 characters), as the typed client makes them; pets have
 * 10-character names, a category and a status, as in the other benchmarks. The PostgreSQL part needs
 * the server binaries and starts a throwaway cluster; without them it is left out, saying so.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createMemoryStorage } from '../lib/index.js';
import { createFileStorage } from '../extras/file-storage/index.js';
import { createPostgresStorage } from '../extras/postgres/index.js';
import { findPostgresBinaries, startPostgresCluster } from '../scripts/postgres-cluster.js';
import { heapPerPet } from './support.js';

const bytes = (value: number): string => value.toFixed(1);

/** A table row: the heap per pet without and with a key and their difference, then the journal's bytes per record likewise when there is one. */
function costRow(storage: string, heap: readonly [number, number], journal?: readonly [number, number]): string {
  const perKey = ([plain, keyed]: readonly [number, number]): string[] => [bytes(plain), bytes(keyed), `**${bytes(keyed - plain)}**`];
  return `| ${[storage, ...perKey(heap), ...(journal === undefined ? ['–', '–', '–'] : perKey(journal))].join(' | ')} |`;
}

async function memoryCost(count: number): Promise<string> {
  // `plain` (its storage with it) stays reachable while the keyed one is measured: collected then, it would lower that figure by its own size.
  const plain = await heapPerPet(async () => createMemoryStorage(), count, false);
  const keyed = await heapPerPet(async () => createMemoryStorage(), count, true);
  return costRow('memory', [plain.heap, keyed.heap]);
}

async function fileCost(count: number): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'petstore-idempotency-cost-'));
  try {
    const heap: number[] = [];
    const journal: number[] = [];
    for (const isKeyed of [false, true]) {
      const path = join(directory, `${isKeyed ? 'keyed' : 'plain'}.journal`);
      // `write` durability: the journal's bytes are the same, without a sync per batch.
      const measured = await heapPerPet(() => createFileStorage(path, { durability: 'write', log: () => undefined }), count, isKeyed);
      await measured.storage.close?.();
      heap.push(measured.heap);
      // The 16-byte header is paid once per journal, not per record.
      journal.push(((await stat(path)).size - 16) / count);
    }
    return costRow('file', heap as [number, number], journal as [number, number]);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/**
 * Table and key-index bytes per row in PostgreSQL, for rows created with and without a key. Rows are
 * written by one INSERT … SELECT each (as many single creates would leave them, without dead rows),
 * with the key and fingerprint the storage writes, then VACUUM ANALYZE settles the sizes.
 */
async function postgresCost(count: number): Promise<string> {
  const binaries = await findPostgresBinaries();
  if (binaries === undefined) return 'PostgreSQL server binaries not found: the PostgreSQL figures are left out';
  const cluster = await startPostgresCluster(binaries);
  const pool = new pg.Pool({ connectionString: cluster.url, max: 2 });
  try {
    const sizes: { table: number; keyIndex: number }[] = [];
    for (const kind of ['plain', 'keyed'] as const) {
      const table = `pets_${kind}`;
      await createPostgresStorage({ query: pool.query.bind(pool), table });
      const key = kind === 'keyed' ? 'gen_random_uuid()::text' : 'NULL';
      // The fingerprint as fingerprintNewPet writes it: canonical JSON of the NewPet.
      const fingerprint = kind === 'keyed'
        ? `'{"categoryId":' || (i % 50) || ',"name":"pet-' || lpad((i % 1000000)::text, 6, '0') || '","status":"' || (ARRAY['available','pending','sold'])[i % 3 + 1] || '"}'`
        : 'NULL';
      await pool.query(`INSERT INTO ${table} (name, category_id, status, idempotency_key, idempotency_fingerprint)
        SELECT 'pet-' || lpad((i % 1000000)::text, 6, '0'), i % 50, (ARRAY['available','pending','sold'])[i % 3 + 1], ${key}, ${fingerprint}
        FROM generate_series(0, $1::integer - 1) AS i`, [count]);
      await pool.query(`VACUUM ANALYZE ${table}`);
      const { rows } = await pool.query(`SELECT pg_relation_size('${table}') AS table, pg_relation_size('${table}_idem_key_idx') AS key_index`);
      const row = rows[0] as { table: string; key_index: string };
      sizes.push({ table: Number(row.table), keyIndex: Number(row.key_index) });
    }
    const [plain, keyed] = sizes as [{ table: number; keyIndex: number }, { table: number; keyIndex: number }];
    return `PostgreSQL ${cluster.version}, after VACUUM ANALYZE: table bytes per row ${bytes(plain.table / count)} without a key, ${bytes(keyed.table / count)} with one (**${bytes((keyed.table - plain.table) / count)}** per key); `
      + `the partial unique index of keys **${bytes(keyed.keyIndex / count)}** bytes per keyed row, and ${plain.keyIndex} bytes in all for a table whose pets have no key.`;
  } finally {
    await pool.end();
    await cluster.stop();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { pets: { type: 'string', default: '100000' } } });
  const count = Number(values.pets);
  if (!(Number.isSafeInteger(count) && count >= 1000)) throw new Error(`--pets needs an integer of at least 1000, not ${JSON.stringify(values.pets)}`);
  const lines = [`Cost of a remembered idempotency key, ${count} pets with 10-character names and 36-character UUID keys; Node ${process.version}.`, ''];
  lines.push('| storage | heap bytes per pet without a key | with a key | heap bytes per key | journal bytes per record without a key | with a key | journal bytes per key |', '|---|---:|---:|---:|---:|---:|---:|');
  lines.push(await memoryCost(count), await fileCost(count), '', await postgresCost(count));
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`idempotency-cost: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
