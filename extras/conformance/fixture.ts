import type { CheckContext, CreatedPet, Fixture, NewPetBody } from './check.js';
import { newPet } from './check.js';
import { NoAnswerError } from './exchange.js';
import type { Answer } from './exchange.js';
import { CheckSkipped, describeAnswer, describeRequest, fail } from './expect.js';
import { isObject } from './json-schema.js';
import { expectListedPets } from './leftovers.js';
import { SPEC_MAX_LIMIT, SPEC_PET_STATUSES } from './spec.js';

/** What the fixture is for, in the reason a check is skipped without it. */
const NEEDS = 'needs the pets this run creates';

/** Creates one pet a check needs; lenient on purpose (any 2xx with an integer id), as judging createPet is the create checks' job. */
async function createOne(context: CheckContext, { body, needs = NEEDS }: { body: NewPetBody; needs?: string }): Promise<CreatedPet> {
  let answer;
  try {
    answer = await context.send({ method: 'POST', path: '/pets', json: body, operation: 'createPet' });
  } catch (error) {
    if (error instanceof NoAnswerError) throw new CheckSkipped(`${needs}, but ${describeRequest(error.request)} got ${error.message}`);
    throw error;
  }
  const id = isObject(answer.json) ? answer.json['id'] : undefined;
  if (answer.status < 200 || answer.status > 299 || typeof id !== 'number' || !Number.isSafeInteger(id)) {
    throw new CheckSkipped(`${needs}, but ${describeRequest(answer.request)} answered ${describeAnswer(answer)}`);
  }
  return { id, sent: body, answer };
}

/**
 * Creates the run's pets: one of each PetStatus and one without a status [spec 2], named
 * `conformance-<runId>-fixture-…`. Sequential, so a server that assigns ascending ids gives them in order.
 */
export async function createFixture(context: CheckContext): Promise<Fixture> {
  const bodies = [
    ...SPEC_PET_STATUSES.map((status, index) => newPet(context, `fixture-${status}`, 9001 + index, status)),
    newPet(context, 'fixture-no-status', 9004),
  ];
  const pets: CreatedPet[] = [];
  for (const body of bodies) pets.push(await createOne(context, { body }));
  return { pets, maxId: Math.max(...pets.map((pet) => pet.id)) };
}

/** What the run knows of the store's size, kept across checks so that pets are created only once. */
export interface FillState {
  /** The least number of pets known to exist: the largest `limit=100` count, plus the pets created since. */
  known: number;
  /** The `fill-N` pets this run has created. */
  created: number;
}

/** Options of fillStore. */
export interface FillOptions {
  /** Pets the check needs, at most 101. */
  least: number;
  /** The run's knowledge, shared by its checks. */
  state: FillState;
}

/** How `limit=100` answered once the store holds what a check needs. */
export interface FilledStore {
  /** The pets of the last `limit=100` page. */
  readonly count: number;
  /** The least number of pets known to exist. */
  readonly known: number;
  /** The `fill-N` pets this call created. */
  readonly created: number;
}

/** The pets of a `limit=100` page [spec 4.1], failing the check when it holds more than 100. */
async function countPets(context: CheckContext): Promise<{ count: number; answer: Answer }> {
  const expected = `200 with Pets, at most ${SPEC_MAX_LIMIT} [spec 4.1]`;
  const answer = await context.send({ method: 'GET', path: `/pets?limit=${SPEC_MAX_LIMIT}`, operation: 'listPets' });
  const pets = expectListedPets(context, answer, expected);
  if (pets.length > SPEC_MAX_LIMIT) fail(answer, expected, `200 with ${pets.length} pets`);
  return { count: pets.length, answer };
}

/**
 * Makes sure at least `least` pets exist (`least` at most 101, one past the largest `limit`), so that a
 * page-size check tests what it names rather than passing on a small store. It counts with `limit=100`
 * (all the interface states: no cursor), creates only the missing pets, named
 * `conformance-<runId>-fill-N`, and counts again; the check fails when that page holds fewer than
 * the pets known to exist, and is skipped when the pets cannot be created.
 */
export async function fillStore(context: CheckContext, { least, state }: FillOptions): Promise<FilledStore> {
  const first = await countPets(context);
  state.known = Math.max(state.known, first.count);
  const missing = Math.max(0, least - state.known);
  for (let created = 0; created < missing; created++) {
    state.created++;
    await createOne(context, { body: newPet(context, `fill-${state.created}`, 9005), needs: `needs at least ${least} pets` });
    state.known++;
  }
  const last = missing === 0 ? first : await countPets(context);
  const shown = Math.min(state.known, SPEC_MAX_LIMIT);
  if (last.count < shown) {
    const why = missing === 0 ? `at least ${state.known} exist` : `at least ${state.known} exist: limit=100 answered ${first.count} before this run created ${missing} more`;
    fail(last.answer, `200 with ${shown} Pets, as ${why} [spec 4.1]`, `200 with ${last.count} pets`);
  }
  return { count: last.count, known: state.known, created: missing };
}
