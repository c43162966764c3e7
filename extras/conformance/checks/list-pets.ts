import { clauseDecision, decision, defineCheck } from '../check.js';
import type { Check, CheckContext } from '../check.js';
import type { Answer } from '../exchange.js';
import type { FilledStore } from '../fixture.js';
import { expectErrorCode, fail } from '../expect.js';
import { expectListedPets } from '../leftovers.js';
import { SPEC_DEFAULT_LIMIT, SPEC_MAX_LIMIT, SPEC_PET_STATUSES } from '../spec.js';
import type { SpecPet } from '../spec.js';

/** The pets of `GET /pets` with a query, as a check expects them: a 200 with Pets [spec 4.1]. */
async function listPets(context: CheckContext, query: string, expected: string): Promise<{ pets: readonly SpecPet[]; answer: Answer }> {
  const answer = await context.send({ method: 'GET', path: `/pets${query}`, operation: 'listPets' });
  return { pets: expectListedPets(context, answer, expected), answer };
}

/** How many pets a full page holds: what `limit=100` answers, after the run's own pets exist, so never 0. */
async function fullPage(context: CheckContext): Promise<number> {
  await context.fixture();
  const { pets, answer } = await listPets(context, `?limit=${SPEC_MAX_LIMIT}`, `200 with Pets, at most ${SPEC_MAX_LIMIT} [spec 4.1]`);
  if (pets.length > SPEC_MAX_LIMIT || pets.length === 0) {
    fail(answer, `200 with 1 to ${SPEC_MAX_LIMIT} Pets: at most \`limit\`, and this run created pets [spec 4.1]`, `${pets.length} pets`);
  }
  return pets.length;
}

/** What the run knows of the store's size, for a check's report. */
function storeSize(store: FilledStore): string {
  const created = store.created === 0 ? '' : `, ${store.created} of them created by this check`;
  return `at least ${store.known} pets exist${created}`;
}

/** A page of `limit` holds at most `limit` pets, and no fewer than the store has up to `limit` (pets are never deleted). */
async function expectPageSize(context: CheckContext, query: string, limit: number, available: number, why: string): Promise<number> {
  const least = Math.min(limit, available);
  const expected = least === limit ? `200 with exactly ${limit} Pets (${why})` : `200 with ${least} to ${limit} Pets (${why})`;
  const { pets, answer } = await listPets(context, query, expected);
  if (pets.length > limit || pets.length < least) fail(answer, expected, `200 with ${pets.length} pets`);
  return pets.length;
}

/** The checks of what spec 4.1 states. */
const SPEC_CHECKS: Check[] = [
  defineCheck('4.1', 'spec', {
    id: 'list/array-of-pets',
    title: 'listPets answers 200 with a JSON array of Pets',
    source: 'spec 2, 4.1',
    async run(context) {
      return `200 with ${await fullPage(context)} pets`;
    },
  }),
  defineCheck('4.1', 'spec', {
    id: 'list/default-limit',
    title: `listPets without a limit answers ${SPEC_DEFAULT_LIMIT} pets when more exist`,
    source: 'spec 4.1, 8',
    async run(context) {
      // One more pet than the default page, or a server whose default is smaller could pass on a small store.
      const store = await context.ensurePets(SPEC_DEFAULT_LIMIT + 1);
      const count = await expectPageSize(context, '', SPEC_DEFAULT_LIMIT, store.count, `the default limit is ${SPEC_DEFAULT_LIMIT} [spec 4.1]; ${storeSize(store)}`);
      return `${count} pets; ${storeSize(store)}`;
    },
  }),
  defineCheck('4.1', 'spec', {
    id: 'list/limit-honoured',
    title: `listPets answers at most \`limit\` pets, and no fewer while more exist, up to a limit of ${SPEC_MAX_LIMIT}`,
    source: 'spec 4.1, 8',
    async run(context) {
      // One more pet than the largest page, so that limit=100 shows both that it is honoured and that it is allowed.
      const store = await context.ensurePets(SPEC_MAX_LIMIT + 1);
      const counts: number[] = [];
      for (const limit of [1, 3]) {
        counts.push(await expectPageSize(context, `?limit=${limit}`, limit, store.count, `limit=${limit} [spec 4.1]; ${storeSize(store)}`));
      }
      return `limit=1, 3, 100 answered ${counts.join(', ')}, ${store.count}; ${storeSize(store)}`;
    },
  }),
  defineCheck('4.1', 'spec', {
    id: 'list/status-filter',
    title: 'listPets with `status` answers only pets of that status',
    source: 'spec 4.1',
    async run(context) {
      await context.fixture();
      const counts: string[] = [];
      for (const status of SPEC_PET_STATUSES) {
        const expected = `200 with only pets whose status is ${status}, at least the one this run created [spec 4.1]`;
        const { pets, answer } = await listPets(context, `?status=${status}&limit=${SPEC_MAX_LIMIT}`, expected);
        const other = pets.find((pet) => pet.status !== status);
        if (other !== undefined) fail(answer, expected, `200 with pet ${other.id} of status ${other.status ?? '(none)'} among ${pets.length}`);
        if (pets.length === 0) fail(answer, expected, '200 with []');
        counts.push(`${status}: ${pets.length}`);
      }
      return counts.join(', ');
    },
  }),
];

const LIMIT_DECISION = decision('`limit` outside 1..100');

/** The checks of this project's decisions about `listPets`. */
const REFERENCE_CHECKS: Check[] = [
  defineCheck('4.1', 'reference', {
    id: 'list/limit-clamped-low',
    title: 'listPets clamps limit=0 to 1 rather than rejecting it',
    source: LIMIT_DECISION,
    async run(context) {
      await context.fixture();
      return `${await expectPageSize(context, '?limit=0', 1, 1, 'limit=0 is clamped to 1')} pet`;
    },
  }),
  defineCheck('4.1', 'reference', {
    id: 'list/limit-clamped-high',
    title: 'listPets clamps limit=1000 to 100 rather than rejecting it',
    source: LIMIT_DECISION,
    async run(context) {
      const available = await fullPage(context);
      return `${await expectPageSize(context, '?limit=1000', SPEC_MAX_LIMIT, available, `limit=1000 is clamped to 100; limit=100 answered ${available}`)} pets`;
    },
  }),
  defineCheck('4.1', 'reference', {
    id: 'list/invalid-limit',
    title: 'listPets rejects a limit that is not a decimal integer with 400 invalid_parameter',
    source: LIMIT_DECISION,
    async run(context) {
      const answer = await context.send({ method: 'GET', path: '/pets?limit=ten', operation: 'listPets' });
      return expectErrorCode(answer, 400, 'invalid_parameter', '`limit` is not a decimal integer');
    },
  }),
  defineCheck('4.1', 'reference', {
    id: 'list/invalid-status',
    title: 'listPets rejects a status outside PetStatus with 400 invalid_parameter',
    source: clauseDecision('4.1', 'PetStatus [spec 2]'),
    async run(context) {
      const answer = await context.send({ method: 'GET', path: '/pets?status=lost', operation: 'listPets' });
      return expectErrorCode(answer, 400, 'invalid_parameter', '`status` is not a PetStatus');
    },
  }),
];

/** The checks of listPets [spec 4.1]. */
export const LIST_PETS_CHECKS: readonly Check[] = [...SPEC_CHECKS, ...REFERENCE_CHECKS];
