import { findLink, parseLinkHeader } from '../../client/link-header.js';
import { decision, defineCheck } from '../check.js';
import type { Check, CheckContext } from '../check.js';
import type { Answer } from '../exchange.js';
import { CheckSkipped, describeAnswer, fail } from '../expect.js';
import { expectListedPets } from '../leftovers.js';

/** Pets per page while paging: small, so the run's four pets span several pages. */
const PAGE_SIZE = 2;

/** Most pages followed; other clients creating pets meanwhile add pages, but never this many in a few seconds. */
const MAX_PAGES = 30;

/** The largest id the interface allows (2^53 − 1), minus one: a cursor past every pet. */
const PAST_EVERY_PET = Number.MAX_SAFE_INTEGER - 1;

const PAGING_DECISION = decision('Paging past the first 100', 'RFC 8288');

/** The target of the `rel="next"` link in a `Link` header (RFC 8288 §3), if there is one. */
function nextLink(header: string | null): string | undefined {
  return header === null ? undefined : findLink(parseLinkHeader(header), 'next');
}

/** What paging has seen so far. */
interface Walk {
  readonly context: CheckContext;
  readonly wanted: ReadonlySet<number>;
  readonly seen: Set<number>;
  lastId: number;
}

/** Takes in one page: at most PAGE_SIZE pets, each id above the last one seen, so none repeats; resolves to the next page's URL. */
function takePage(walk: Walk, answer: Answer): string | undefined {
  const expected = `200 with at most ${PAGE_SIZE} Pets, ids ascending past ${walk.lastId}, and Link: rel="next" while pets ${[...walk.wanted].join(', ')} are not all seen`;
  const pets = expectListedPets(walk.context, answer, expected);
  if (pets.length > PAGE_SIZE) fail(answer, expected, `200 with ${pets.length} pets`);
  for (const pet of pets) {
    if (pet.id <= walk.lastId) {
      fail(answer, expected, `pet ${pet.id} where only ids past ${walk.lastId} belong: ${walk.seen.has(pet.id) ? 'a pet repeated' : 'the page does not continue after the cursor'}`);
    }
    walk.lastId = pet.id;
    if (walk.wanted.has(pet.id)) walk.seen.add(pet.id);
  }
  const missed = [...walk.wanted].filter((id) => id < walk.lastId && !walk.seen.has(id));
  if (missed.length > 0) fail(answer, expected, `pet(s) ${missed.join(', ')} skipped: the pages went from below to past them (${describeAnswer(answer, ['Link'])})`);
  return nextLink(answer.headers.get('link')) ?? undefined;
}

/** The checks of paging beyond `limit` [spec 4.4: not shown; decided: an `after` cursor announced by `Link`]. */
export const PAGING_CHECKS: readonly Check[] = [
  defineCheck('4.4', 'reference', {
    id: 'paging/link-next',
    title: 'listPets pages through the pets by Link: rel="next", each exactly once, in ascending id order',
    source: PAGING_DECISION,
    async run(context: CheckContext) {
      const fixture = await context.fixture();
      const walk: Walk = { context, wanted: new Set(fixture.pets.map((pet) => pet.id)), seen: new Set(), lastId: Math.min(...fixture.pets.map((pet) => pet.id)) - 1 };
      if (walk.wanted.size < fixture.pets.length) throw new CheckSkipped(`needs pets with ids of their own, but createPet gave this run's ${fixture.pets.length} pets the ids ${[...walk.wanted].join(', ')}`);
      let target: string | undefined = `/pets?limit=${PAGE_SIZE}&after=${walk.lastId}`;
      for (let page = 1; page <= MAX_PAGES; page++) {
        const answer: Answer = await context.send({ method: 'GET', path: target, operation: 'listPets' });
        const next = takePage(walk, answer);
        if (walk.seen.size === walk.wanted.size) return `${walk.seen.size} pets of this run found once each over ${page} page(s)`;
        if (next === undefined) fail(answer, `Link: rel="next" while pets ${[...walk.wanted].filter((id) => !walk.seen.has(id)).join(', ')} remain`, describeAnswer(answer, ['Link']));
        target = new URL(next, answer.request.url).href;
      }
      return fail(await context.send({ method: 'GET', path: target, operation: 'listPets' }), `the run's pets within ${MAX_PAGES} pages of ${PAGE_SIZE}`);
    },
  }),
  defineCheck('4.4', 'reference', {
    id: 'paging/last-page',
    title: 'listPets answers [] without a next Link past the last pet',
    source: PAGING_DECISION,
    async run(context) {
      const answer = await context.send({ method: 'GET', path: `/pets?limit=${PAGE_SIZE}&after=${PAST_EVERY_PET}`, operation: 'listPets' });
      const expected = '200 with [] and no Link: rel="next", as no pet comes after this cursor';
      const pets = expectListedPets(context, answer, expected);
      if (pets.length > 0 || nextLink(answer.headers.get('link')) !== undefined) fail(answer, expected, describeAnswer(answer, ['Link']));
      return '200 with [] and no next link';
    },
  }),
];
