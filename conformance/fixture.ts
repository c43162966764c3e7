import type { CheckContext, CreatedPet, Fixture, NewPetBody } from './check.js';
import { newPet } from './check.js';
import { NoAnswerError } from './exchange.js';
import { CheckSkipped, describeAnswer, describeRequest } from './expect.js';
import { isObject } from './json-schema.js';
import { SPEC_PET_STATUSES } from './spec.js';

/** What the fixture is for, in the reason a check is skipped without it. */
const NEEDS = 'needs the pets this run creates';

/** Creates one fixture pet; lenient on purpose (any 2xx with an integer id), as judging createPet is the create checks' job. */
async function createOne(context: CheckContext, body: NewPetBody): Promise<CreatedPet> {
  let answer;
  try {
    answer = await context.send({ method: 'POST', path: '/pets', json: body, operation: 'createPet' });
  } catch (error) {
    if (error instanceof NoAnswerError) throw new CheckSkipped(`${NEEDS}, but ${describeRequest(error.request)} got ${error.message}`);
    throw error;
  }
  const id = isObject(answer.json) ? answer.json['id'] : undefined;
  if (answer.status < 200 || answer.status > 299 || typeof id !== 'number' || !Number.isSafeInteger(id)) {
    throw new CheckSkipped(`${NEEDS}, but ${describeRequest(answer.request)} answered ${describeAnswer(answer)}`);
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
  for (const body of bodies) pets.push(await createOne(context, body));
  return { pets, maxId: Math.max(...pets.map((pet) => pet.id)) };
}
