import { GET_PET_DEPRECATED_AT } from '../../../lib/index.js';
import { decision, defineCheck, missingPetId } from '../check.js';
import type { Check, CheckContext, CreatedPet } from '../check.js';
import type { Answer } from '../exchange.js';
import { describeAnswer, echoes, expectError, expectErrorCode, expectPet, fail } from '../expect.js';
import { SPEC_SUNSET } from '../spec.js';

/** The first pet this run created. */
async function firstPet(context: CheckContext): Promise<CreatedPet> {
  return (await context.fixture()).pets[0] as CreatedPet;
}

/** Sends getPet for an id, or for any path segment. */
function getPet(context: CheckContext, id: number | string): Promise<Answer> {
  return context.send({ method: 'GET', path: `/pets/${id}`, operation: 'getPet' });
}

/** The checks of what spec 4.3 states. */
const SPEC_CHECKS: Check[] = [
  defineCheck('4.3', 'spec', {
    id: 'get/created-pet',
    title: 'getPet answers 200 with the pet createPet created',
    source: 'spec 4.2, 4.3',
    async run(context) {
      const created = await firstPet(context);
      const answer = await getPet(context, created.id);
      const expected = `200 with pet ${created.id} as created: ${JSON.stringify(created.sent)} [spec 4.3]`;
      const pet = expectPet(answer, 200, expected);
      if (pet.id !== created.id || !echoes(pet, created.sent)) fail(answer, expected);
      return `200 with pet ${pet.id}`;
    },
  }),
  defineCheck('4.3', 'spec', {
    id: 'get/missing-pet',
    title: 'getPet answers 404 with the Error body for an id no pet has',
    source: 'spec 4.3, 7',
    async run(context) {
      const id = await missingPetId(context);
      const error = expectError(await getPet(context, id), 404, `no pet has id ${id} [spec 4.3]`);
      return `404 ${error.code} for id ${id}`;
    },
  }),
];

/** The deprecation headers of getPet: when (RFC 9745), until when (RFC 8594), and the successor (RFC 8288). */
function expectDeprecation(context: CheckContext, answer: Answer): void {
  const deprecation = `@${GET_PET_DEPRECATED_AT}`;
  const successor = `${context.baseUrl}/pets`;
  const expected = `Deprecation: ${deprecation}, Sunset: ${SPEC_SUNSET} and Link: <${successor}>; rel="successor-version"`;
  const link = /<([^>]*)>\s*;\s*rel="?successor-version"?/i.exec(answer.headers.get('link') ?? '');
  const isSuccessor = link?.[1] !== undefined && new URL(link[1], answer.request.url).href === successor;
  if (answer.headers.get('deprecation') !== deprecation || answer.headers.get('sunset') !== SPEC_SUNSET || !isSuccessor) {
    fail(answer, `${answer.status} with ${expected}`, describeAnswer(answer, ['Deprecation', 'Sunset', 'Link']));
  }
}

/** The checks of this project's decisions about getPet. */
const REFERENCE_CHECKS: Check[] = [
  defineCheck('4.3', 'reference', {
    id: 'get/invalid-pet-id',
    title: 'getPet answers a petId that is not a decimal integer with 400 invalid_parameter',
    source: decision('`petId` forms'),
    async run(context) {
      const answer = await getPet(context, 'abc');
      return expectErrorCode(answer, 400, 'invalid_parameter', '`petId` is not an integer [spec 4.3]');
    },
  }),
  defineCheck('4.3', 'reference', {
    id: 'deprecation/getPet',
    title: 'getPet answers with Deprecation, Sunset and the successor Link',
    source: decision('Deprecation date of `getPet`', 'RFC 9745, RFC 8594, RFC 8288'),
    async run(context) {
      const created = await firstPet(context);
      const answer = await getPet(context, created.id);
      expectPet(answer, 200, `200 with pet ${created.id}`);
      expectDeprecation(context, answer);
      return 'Deprecation, Sunset and Link present';
    },
  }),
  defineCheck('4.3', 'reference', {
    id: 'deprecation/getPet-errors',
    title: 'getPet answers its errors with the deprecation headers too',
    source: decision('Which `getPet` answers carry the deprecation headers'),
    async run(context) {
      const answer = await getPet(context, await missingPetId(context));
      expectError(answer, 404, 'no pet has this id');
      expectDeprecation(context, answer);
      return '404 with Deprecation, Sunset and Link';
    },
  }),
];

/** The checks of getPet [spec 4.3]. */
export const GET_PET_CHECKS: readonly Check[] = [...SPEC_CHECKS, ...REFERENCE_CHECKS];
