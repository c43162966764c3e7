import assert from 'node:assert/strict';
import type { PetstoreClient } from '../../extras/client/index.js';
import type { NewPet, Pet } from '../../lib/index.js';

/** One create a caller meant: what it sent, and what createPet gave it or threw. */
export interface IntendedCreate {
  input: NewPet;
  pet?: Pet;
  failure?: unknown;
}

/** Creates tracked while they run: the outcomes so far. */
export interface LanesOfCreates {
  intended: IntendedCreate[];
  acknowledged: () => number;
  done: Promise<void>;
}

/** How many callers, how many pets each creates, and what each pet is. */
export interface LaneOptions {
  lanes: number;
  createsPerLane: number;
  input: (lane: number, index: number) => NewPet;
}

/**
 * `lanes` callers, caller `lane` on `clients[lane % clients.length]`, each creating `createsPerLane`
 * pets one after the other, as a service's workers do; a failed create is kept as its outcome, and
 * the caller goes on with its next pet.
 */
export function createPetsInLanes(clients: readonly PetstoreClient[], options: LaneOptions): LanesOfCreates {
  const intended: IntendedCreate[] = [];
  const lanes = Array.from({ length: options.lanes }, async (_, lane) => {
    const client = clients[lane % clients.length] as PetstoreClient;
    for (let index = 0; index < options.createsPerLane; index++) {
      const outcome: IntendedCreate = { input: options.input(lane, index) };
      intended.push(outcome);
      try {
        outcome.pet = await client.createPet(outcome.input);
      } catch (failure) {
        outcome.failure = failure;
      }
    }
  });
  return { intended, acknowledged: () => intended.filter((outcome) => outcome.pet !== undefined).length, done: Promise.all(lanes).then(() => undefined) };
}

/** Resolves once `least` of the creates are acknowledged; bounded, in case the creates stall. */
export async function acknowledgedAtLeast(creates: LanesOfCreates, least: number): Promise<void> {
  for (let round = 0; creates.acknowledged() < least && round < 6_000; round++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(creates.acknowledged() >= least, `${creates.acknowledged()} of ${least} creates acknowledged`);
}

/** Each intended pet exists exactly once among `listed`, with the id its caller was given; no call failed; nothing else was stored. */
export function assertExactlyOnce(creates: LanesOfCreates, listed: readonly Pet[]): void {
  const failures = creates.intended.flatMap((outcome) => (outcome.failure === undefined ? [] : [`${outcome.input.name}: ${String(outcome.failure)}`]));
  assert.deepEqual(failures, [], 'no call failed');
  const byName = new Map<string, Pet[]>();
  for (const pet of listed) byName.set(pet.name, [...(byName.get(pet.name) ?? []), pet]);
  const duplicated = [...byName.values()].filter((pets) => pets.length > 1).map((pets) => `${pets[0]?.name} ×${pets.length}`);
  assert.deepEqual(duplicated, [], 'no pet stored twice');
  for (const outcome of creates.intended) {
    assert.deepEqual(byName.get(outcome.input.name), [outcome.pet], `${outcome.input.name} exists once, as its caller was told`);
  }
  assert.equal(listed.length, creates.intended.length, 'no pet nobody meant');
}
