import type { CheckContext } from './check.js';
import { INVALID_BODY_IDS } from './checks/create-pet.js';
import type { Answer } from './exchange.js';
import { CheckFailure, expectPets } from './expect.js';
import { isObject } from './json-schema.js';
import { departuresFromSpec } from './spec.js';
import type { SpecPet } from './spec.js';

/** Every pet the kit creates is named so [see CheckContext.petName]. */
const KIT_PREFIX = 'conformance-';

/**
 * Why a pet this run did not create may be in a listing: an earlier run of the kit named it, and a
 * pet that is not a valid Pet was most likely stored by a `create/invalid-*` check the server
 * wrongly accepted. Undefined when the pet is not the kit's or is this run's.
 */
function leftoverOf(pet: Record<string, unknown>, runId: string): string | undefined {
  const { name } = pet;
  if (typeof name !== 'string' || !name.startsWith(KIT_PREFIX) || name.startsWith(`${KIT_PREFIX}${runId}-`)) return undefined;
  const rest = name.slice(KIT_PREFIX.length);
  const check = INVALID_BODY_IDS.find((id) => rest.endsWith(`-${id}`));
  const shown = `pet ${JSON.stringify(pet['id'])} (${name.slice(0, 80)})`;
  if (check === undefined) return `${shown} was created by an earlier run of the kit, not this one`;
  const earlierRun = rest.slice(0, -(check.length + 1));
  return `${shown} was created by an earlier run of the kit (run ${earlierRun}), probably left by its create/${check} check, whose invalid body this server wrongly accepted and stored`;
}

/** What the failing listing owes to pets earlier runs left: the invalid pets among them that those runs named. */
function leftoversIn(answer: Answer, runId: string): string | undefined {
  if (!Array.isArray(answer.json)) return undefined;
  const found: string[] = [];
  for (const pet of answer.json as readonly unknown[]) {
    if (!isObject(pet) || departuresFromSpec('Pet', pet).length === 0) continue;
    const leftover = leftoverOf(pet, runId);
    if (leftover !== undefined) found.push(leftover);
  }
  if (found.length === 0) return undefined;
  return found.length === 1 ? found[0] : `${found[0]}; and ${found.length - 1} more such pet(s)`;
}

/**
 * The Pets of a listPets answer, as expectPets reads them; when the answer fails because of invalid
 * pets an earlier run of the kit left, the failure says where they came from.
 */
export function expectListedPets(context: CheckContext, answer: Answer, expected: string): readonly SpecPet[] {
  try {
    return expectPets(answer, expected);
  } catch (error) {
    const leftovers = error instanceof CheckFailure ? leftoversIn(answer, context.runId) : undefined;
    if (leftovers === undefined || !(error instanceof CheckFailure)) throw error;
    throw new CheckFailure({ ...error.report, received: `${error.report.received}; ${leftovers}` });
  }
}
