import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { spawnServer } from '../support/process.js';
import { PROFILE, report } from './settings.js';
import { SHUTDOWN_DEADLINE } from '../../server/node/standalone/start-server.js';

const KEY = 'shutdown-load-key';

/** How long the clients load the server before SIGTERM (ms). */
const LOAD_BEFORE_SIGNAL = PROFILE.name === 'long' ? 2_000 : 400;

/** What one request of the load came to. */
type Outcome =
  | { kind: 'answered'; status: number; isClosing: boolean; name: string | undefined; id: number | undefined }
  | { kind: 'refused'; code: string; name: string | undefined; isReused: boolean };

/** One request over a keep-alive agent; `name` marks a create. */
function send(origin: string, agent: Agent, name: string | undefined): Promise<Outcome> {
  return new Promise((resolve) => {
    const body = name === undefined ? undefined : JSON.stringify({ name, categoryId: 1 });
    const request = httpRequest(`${origin}/v1/pets${name === undefined ? '?limit=10' : ''}`, {
      method: name === undefined ? 'GET' : 'POST',
      agent,
      headers: { authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error: NodeJS.ErrnoException) => resolve({ kind: 'refused', code: `answer cut: ${error.code ?? error.message}`, name, isReused: false }));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let id: number | undefined;
        if (response.statusCode === 201) id = (JSON.parse(text) as { id: number }).id;
        resolve({ kind: 'answered', status: response.statusCode ?? 0, isClosing: response.headers.connection === 'close', name, id });
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ kind: 'refused', code: error.code ?? error.message, name, isReused: request.reusedSocket }));
    request.end(body);
  });
}

/** Lists every pet of a running server, page by page. */
async function allPets(origin: string): Promise<{ id: number; name: string }[]> {
  const pets: { id: number; name: string }[] = [];
  let after = 0;
  for (;;) {
    const response = await fetch(`${origin}/v1/pets?limit=100&after=${after}`, { headers: { authorization: `Bearer ${KEY}` } });
    const page = (await response.json()) as { id: number; name: string }[];
    pets.push(...page);
    if (page.length < 100) return pets;
    after = (page.at(-1) as { id: number }).id;
  }
}

describe('graceful shutdown of the real server under load', () => {
  let directory: string;
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), 'petstore-shutdown-'));
  });
  after(() => rm(directory, { recursive: true, force: true }));

  test(`SIGTERM with ${PROFILE.shutdownClients} clients creating and listing: every request the server took is answered in full, it exits 0 within the deadline, and every acknowledged create is in the data file after a restart; every other round (the first included) with a 1 s shutdown delay`, async () => {
    let failures = 0;
    let requestsTotal = 0;
    let createdTotal = 0;
    for (let round = 0; round < PROFILE.shutdownRounds; round++) {
      const dataFile = join(directory, `round-${round}.data`);
      // With a delay the server keeps serving after SIGTERM, failing readiness, before it closes as without one.
      const delay = round % 2 === 0 ? '1' : '0';
      const server = spawnServer({ PETSTORE_API_KEYS: KEY, PETSTORE_DATA: dataFile, PETSTORE_ACCESS_LOG: '1', PETSTORE_SHUTDOWN_DELAY: delay });
      await server.ready;
      const outcomes: Outcome[] = [];
      let isStopped = false;
      const clients = Array.from({ length: PROFILE.shutdownClients }, async (_, client) => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        for (let index = 0; !isStopped; index++) {
          const outcome = await send(server.origin, agent, index % 3 === 2 ? undefined : `Round ${round} client ${client} pet ${index}`);
          outcomes.push(outcome);
          // Once the server refuses new connections, this client is done.
          if (outcome.kind === 'refused' && outcome.code === 'ECONNREFUSED') break;
        }
        agent.destroy();
      });
      await new Promise((resume) => setTimeout(resume, LOAD_BEFORE_SIGNAL));
      const signalled = Date.now();
      server.child.kill('SIGTERM');
      let limit: NodeJS.Timeout | undefined;
      const exited = await Promise.race([server.exited, new Promise<string>((resolve) => { limit = setTimeout(() => resolve('still running'), SHUTDOWN_DEADLINE + 5_000); })]);
      clearTimeout(limit);
      const stoppedAfter = Date.now() - signalled;
      isStopped = true;
      await Promise.all(clients);
      if (exited === 'still running') server.child.kill('SIGKILL');
      assert.equal(exited, 0, `exit ${exited} after ${stoppedAfter} ms: ${server.stderr()}`);

      const answered = outcomes.filter((outcome) => outcome.kind === 'answered');
      const refused = outcomes.filter((outcome) => outcome.kind === 'refused');
      // The one way not to be answered: a new connection after the listener closed. A request on a
      // kept-alive connection is answered, with Connection: close, never reset as idle.
      const unclean = refused.filter((outcome) => outcome.code !== 'ECONNREFUSED');
      assert.deepEqual(unclean.map((outcome) => `${outcome.code}${outcome.kind === 'refused' && outcome.isReused ? ' on a reused connection' : ''}`), [], 'every request was answered in full or refused as a new connection');
      assert.deepEqual(answered.filter((outcome) => outcome.status !== 200 && outcome.status !== 201).map((outcome) => outcome.status), [], 'no error answers');
      assert.ok(answered.some((outcome) => outcome.isClosing), 'answers during shutdown carry Connection: close');
      const logged = server.stdout().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { status: number });
      assert.deepEqual(logged.filter((line) => line.status === 0), [], 'the server finished every response it started');
      assert.equal(logged.length, answered.length, 'every request the server logged reached its client');

      const acknowledged = new Map(answered.filter((outcome) => outcome.status === 201).map((outcome) => [outcome.name, outcome.id]));
      const restarted = spawnServer({ PETSTORE_API_KEYS: KEY, PETSTORE_DATA: dataFile });
      try {
        await restarted.ready;
        const stored = new Map((await allPets(restarted.origin)).map((pet) => [pet.name, pet.id]));
        const lost = [...acknowledged].filter(([name, id]) => stored.get(name as string) !== id);
        assert.deepEqual(lost, [], 'every acknowledged create survived the shutdown');
        const unanswered = [...stored.keys()].filter((name) => !acknowledged.has(name));
        assert.deepEqual(unanswered, [], 'no create ran without its answer reaching the client');
        failures += lost.length + unanswered.length;
      } finally {
        restarted.child.kill('SIGTERM');
        await restarted.exited;
      }
      requestsTotal += outcomes.length;
      createdTotal += acknowledged.size;
      failures += unclean.length;
    }
    report({ part: 'graceful shutdown under load', cases: requestsTotal, failures, note: `${PROFILE.shutdownRounds} SIGTERM rounds, ${createdTotal} acknowledged creates, all found after restart` });
  });
});
