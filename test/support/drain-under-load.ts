/**
 * The drain under load, shared by the memory storage's test and the file storage's: clients create
 * and list over keep-alive connections while `close({ delay })` runs, and every acknowledged create
 * must be found, with its id, in the storage reopened afterwards.
 */
import assert from 'node:assert/strict';
import { Agent, request as httpRequest } from 'node:http';
import { createPetstore } from '../../lib/index.js';
import type { Pet, PetStorage } from '../../lib/index.js';
import { API_KEY, assertError, call, startTestServer } from './standalone-http.js';

/** Clients creating and listing over keep-alive connections while the server drains. */
export const CLIENTS = 6;

/** The drain under test (ms): long enough for many requests on a loaded machine. */
export const DELAY = 500;

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

/** Runs the load through close({ delay }) on a server over `storage`, then checks the pets `reopen()` finds. */
export async function drainUnderLoad(storage: PetStorage, reopen: () => PetStorage | Promise<PetStorage>): Promise<void> {
  const server = await startTestServer({ store: createPetstore({ storage }) });
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

  const reopened = createPetstore({ storage: await reopen() });
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
}
