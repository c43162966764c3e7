import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createPetstore } from '../../../lib/index.js';
import type { Pet } from '../../../lib/index.js';
import { createFileStorage } from '../../../extras/file-storage/index.js';
import { API_KEY, assertError, call, startTestServer } from '../../support/http.js';

/** Clients creating and listing over keep-alive connections while the server drains. */
const CLIENTS = 6;

/** The drain under test (ms): long enough for many requests on a loaded machine. */
const DELAY = 500;

/** What became of one request of the load. */
interface Outcome {
  /** Whether it was sent after close() was called. */
  isAfterClose: boolean;
  /** The status, or the error code when no answer came. */
  result: number | string;
  /** The pet a create sent and, when answered 201, the id it got. */
  name?: string;
  id?: number;
}

/** Sends one create (with `name`) or one list over `agent`; never rejects. */
function send(origin: string, agent: Agent, name: string | undefined, isAfterClose: boolean): Promise<Outcome> {
  const body = name === undefined ? undefined : JSON.stringify({ name, categoryId: 2 });
  const headers: Record<string, string> = { authorization: `Bearer ${API_KEY}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve) => {
    const outgoing = httpRequest(`${origin}/v1/pets${body === undefined ? '?limit=5' : ''}`, { method: body === undefined ? 'GET' : 'POST', agent, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; });
      response.on('error', (error: NodeJS.ErrnoException) => resolve({ isAfterClose, result: `cut: ${error.code ?? error.message}` }));
      response.on('end', () => {
        const outcome: Outcome = { isAfterClose, result: response.statusCode ?? 0 };
        if (name !== undefined) outcome.name = name;
        if (response.statusCode === 201) outcome.id = (JSON.parse(text) as Pet).id;
        resolve(outcome);
      });
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => resolve({ isAfterClose, result: error.code ?? error.message }));
    outgoing.end(body);
  });
}

describe('close({ delay }) under load over the file storage', () => {
  let directory: string;
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'petstore-drain-'));
  });
  after(() => rm(directory, { recursive: true, force: true }));

  test(`close({ delay: ${DELAY} }) with ${CLIENTS} clients creating and listing: /readyz fails at once, requests keep succeeding during the delay, none is lost, and every acknowledged create is stored`, async () => {
    const dataFile = join(directory, 'pets.journal');
    const server = await startTestServer({ store: createPetstore({ storage: await createFileStorage(dataFile, { durability: 'write' }) }) });
    const outcomes: Outcome[] = [];
    let isClosing = false;
    let warmedUp = (): void => {};
    const isWarm = new Promise<void>((resolve) => { warmedUp = resolve; });
    const clients = Array.from({ length: CLIENTS }, async (_, client) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      for (let index = 0; ; index++) {
        const outcome = await send(server.origin, agent, index % 4 === 3 ? undefined : `drain ${client}-${index}`, isClosing);
        outcomes.push(outcome);
        if (outcomes.length >= CLIENTS * 5) warmedUp();
        // The listener has closed: this client is done.
        if (outcome.result === 'ECONNREFUSED') break;
      }
      agent.destroy();
    });
    await isWarm;
    const closing = server.close({ delay: DELAY });
    isClosing = true;
    assertError(await call(server, 'GET', '/readyz'), 503, 'unavailable', /shutting down/);
    await closing;
    await Promise.all(clients);

    const afterClose = outcomes.filter((outcome) => outcome.isAfterClose);
    assert.ok(afterClose.filter((outcome) => outcome.result === 200 || outcome.result === 201).length >= CLIENTS * 5, 'requests kept succeeding after close() was called');
    const lost = outcomes.filter((outcome) => outcome.result !== 200 && outcome.result !== 201 && outcome.result !== 'ECONNREFUSED');
    assert.deepEqual(lost, [], 'every request was answered in full, or refused as a new connection once the listener closed');

    const reopened = createPetstore({ storage: await createFileStorage(dataFile) });
    try {
      const stored = new Map<string, number>();
      for (let page = await reopened.listPets({ limit: 100 }); page.length > 0; page = await reopened.listPets({ limit: 100, after: (page.at(-1) as Pet).id })) {
        for (const pet of page) stored.set(pet.name, pet.id);
      }
      const acknowledged = outcomes.filter((outcome) => outcome.result === 201);
      assert.deepEqual(acknowledged.filter((outcome) => stored.get(outcome.name ?? '') !== outcome.id), [], 'every acknowledged create is stored with its id');
      const answeredNames = new Set(acknowledged.map((outcome) => outcome.name));
      assert.deepEqual([...stored.keys()].filter((name) => !answeredNames.has(name)), [], 'no create was stored without its 201 reaching the client');
    } finally {
      await reopened.close();
    }
  });
});
