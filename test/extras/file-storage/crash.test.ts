import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Pet } from '../../../lib/index.js';
import { repairStorage } from '../../../extras/cli/repair-storage.js';
import { runMain, spawnServer } from '../../support/process.js';
import type { ServerProcess } from '../../support/process.js';

const API_KEY = 'crash-test-key-0123';
const CLIENTS = 32;
/** Acknowledged creates per round before the kill; the clients keep sending past it, so the kill lands mid-load. */
const CREATES_BEFORE_KILL = 300;
const ROUNDS = 3;

const directory = await mkdtemp(join(tmpdir(), 'petstore-crash-'));
after(() => rm(directory, { recursive: true, force: true }));

/** One HTTP exchange over `agent`; rejects when the connection dies before the whole response arrived. */
function exchange(agent: Agent, url: string, method: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${API_KEY}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const outgoing = request(url, { method, agent, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => { text += chunk; });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

async function start(dataFile: string): Promise<ServerProcess> {
  const server = spawnServer({ PETSTORE_API_KEYS: API_KEY, PETSTORE_DATA: dataFile, HOST: '127.0.0.1' });
  await server.ready;
  return server;
}

/** Every pet the server lists, page by page. */
async function listAll(agent: Agent, server: ServerProcess): Promise<Pet[]> {
  const pets: Pet[] = [];
  for (;;) {
    const response = await exchange(agent, `${server.url}/pets?limit=100&after=${pets.at(-1)?.id ?? 0}`, 'GET');
    assert.equal(response.status, 200, response.body);
    const page = JSON.parse(response.body) as Pet[];
    if (page.length === 0) return pets;
    pets.push(...page);
  }
}

/**
 * Creates pets from CLIENTS concurrent keep-alive clients until CREATES_BEFORE_KILL were
 * acknowledged, then kills the server with SIGKILL while the clients are still sending. Returns the
 * pets whose 201 response arrived in full.
 */
async function createUntilKilled(server: ServerProcess, round: number): Promise<Pet[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const acknowledged: Pet[] = [];
  let isKilled = false;
  let sent = 0;
  await Promise.all(Array.from({ length: CLIENTS }, async (_, client) => {
    while (!isKilled) {
      const input = { name: `round ${round} client ${client} pet ${sent++} 🐕`, categoryId: round * 1000 + client, status: 'pending' };
      let response: { status: number; body: string };
      try {
        response = await exchange(agent, `${server.url}/pets`, 'POST', JSON.stringify(input));
      } catch {
        // The connection died with the server: this create was never acknowledged.
        continue;
      }
      assert.equal(response.status, 201, response.body);
      const pet = JSON.parse(response.body) as Pet;
      assert.deepEqual({ ...pet, id: 0 }, { id: 0, ...input });
      acknowledged.push(pet);
      if (acknowledged.length === CREATES_BEFORE_KILL) {
        isKilled = true;
        server.child.kill('SIGKILL');
      }
    }
  }));
  agent.destroy();
  assert.equal(await server.exited, 'SIGKILL');
  return acknowledged;
}

describe('the server on PETSTORE_DATA under kill -9', () => {
  test('every pet whose 201 reached a client survives a kill -9 mid-load, and no id is handed out twice, over several rounds', async () => {
    const dataFile = join(directory, 'crash.journal');
    const acknowledged = new Map<number, Pet>();
    for (let round = 1; round <= ROUNDS; round++) {
      const server = await start(dataFile);
      for (const pet of await createUntilKilled(server, round)) {
        assert.equal(acknowledged.has(pet.id), false, `id ${pet.id} was handed out twice`);
        acknowledged.set(pet.id, pet);
      }
      const restarted = await start(dataFile);
      const agent = new Agent({ keepAlive: true });
      const listed = await listAll(agent, restarted);
      const byId = new Map(listed.map((pet) => [pet.id, pet]));
      assert.equal(byId.size, listed.length, 'no id appears twice');
      for (const pet of acknowledged.values()) assert.deepEqual(byId.get(pet.id), pet, `pet ${pet.id} came back identical`);
      const sample = [...acknowledged.values()].at(-1) as Pet;
      const fetched = await exchange(agent, `${restarted.url}/pets/${sample.id}`, 'GET');
      assert.equal(fetched.status, 200);
      assert.deepEqual(JSON.parse(fetched.body), sample);
      agent.destroy();
      restarted.child.kill('SIGTERM');
      assert.equal(await restarted.exited, 0);
    }
    assert.ok(acknowledged.size >= ROUNDS * CREATES_BEFORE_KILL, `${acknowledged.size} pets acknowledged`);
  });

  test('the server refuses to start on a journal corrupt in the middle, naming the file and offset, and starts after a repair', async () => {
    const dataFile = join(directory, 'corrupt.journal');
    const server = await start(dataFile);
    const agent = new Agent({ keepAlive: true });
    const created: Pet[] = [];
    for (let index = 0; index < 5; index++) {
      const response = await exchange(agent, `${server.url}/pets`, 'POST', JSON.stringify({ name: `pet ${index}`, categoryId: index }));
      assert.equal(response.status, 201);
      created.push(JSON.parse(response.body) as Pet);
    }
    agent.destroy();
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);

    const bytes = await readFile(dataFile);
    const secondRecord = 16 + 8 + 18 + Buffer.byteLength('pet 0');
    bytes[secondRecord + 20] = (bytes[secondRecord + 20] as number) ^ 0xff;
    await writeFile(dataFile, bytes);
    const refused = await runMain({ PETSTORE_API_KEYS: API_KEY, PETSTORE_DATA: dataFile });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, new RegExp(`Data file ${dataFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is corrupt at byte offset ${secondRecord}: record checksum mismatch`));

    const line = await repairStorage({ dataFile, log: () => undefined });
    assert.match(line, new RegExp(`cut at byte offset ${secondRecord} \\(record checksum mismatch\\).*1 pets kept; ids up to 5 stay reserved; the file as it was is in .*\\.bak$`));
    const repaired = await start(dataFile);
    const again = new Agent({ keepAlive: true });
    assert.deepEqual(await listAll(again, repaired), created.slice(0, 1));
    const next = await exchange(again, `${repaired.url}/pets`, 'POST', JSON.stringify({ name: 'after repair', categoryId: 1 }));
    assert.equal((JSON.parse(next.body) as Pet).id, 6);
    again.destroy();
    repaired.child.kill('SIGTERM');
    assert.equal(await repaired.exited, 0);
  });
});
