import { clauseDecision, decision, defineCheck, newPet } from '../check.js';
import type { Check, CheckContext, NewPetBody } from '../check.js';
import type { Answer } from '../exchange.js';
import { describeAnswer, echoes, expectError, expectErrorCode, expectPet, fail } from '../expect.js';
import { isObject } from '../json-schema.js';
import type { SpecError, SpecPet } from '../spec.js';

/** Sends a createPet request with a JSON body. */
function create(context: CheckContext, json: unknown): Promise<Answer> {
  return context.send({ method: 'POST', path: '/pets', json, operation: 'createPet' });
}

/** Creates a pet and expects the 201 with the Pet echoing what was sent and an integer id [spec 4.2]. */
async function expectCreated(context: CheckContext, body: NewPetBody): Promise<{ pet: SpecPet; answer: Answer }> {
  const answer = await create(context, body);
  const expected = '201 with a Pet echoing the fields sent and an integer id [spec 4.2]';
  const pet = expectPet(answer, 201, expected);
  if (!echoes(pet, body)) fail(answer, expected);
  return { pet, answer };
}

/** NewPet bodies that lack a required field or hold an invalid value [spec 2, 4.2]; `name` is the run's when present. */
const INVALID_BODIES: readonly { id: string; title: string; body: (context: CheckContext) => Record<string, unknown> }[] = [
  { id: 'missing-name', title: 'without `name`', body: () => ({ categoryId: 1 }) },
  { id: 'missing-category-id', title: 'without `categoryId`', body: (context) => ({ name: context.petName('missing-category-id') }) },
  { id: 'invalid-name', title: 'with a `name` that is not a string', body: () => ({ name: 42, categoryId: 1 }) },
  { id: 'invalid-category-id', title: 'with a `categoryId` that is not a number', body: (context) => ({ name: context.petName('invalid-category-id'), categoryId: 'one' }) },
  { id: 'fractional-category-id', title: 'with a fractional `categoryId`', body: (context) => ({ name: context.petName('fractional-category-id'), categoryId: 1.5 }) },
  { id: 'invalid-status', title: 'with a `status` outside PetStatus', body: (context) => ({ name: context.petName('invalid-status'), categoryId: 1, status: 'lost' }) },
];

/** The ids of the invalid bodies, which name their `create/<id>` check and, where the body has a valid `name`, the pet. */
export const INVALID_BODY_IDS: readonly string[] = INVALID_BODIES.map((invalid) => invalid.id);

/** The checks of what spec 4.2 states. */
const SPEC_CHECKS: Check[] = [
  defineCheck('4.2', 'spec', {
    id: 'create/created',
    title: 'createPet answers 201 with the Pet: the fields sent and a new integer id',
    source: 'spec 2, 4.2',
    async run(context) {
      const { pet } = await expectCreated(context, newPet(context, 'created', 7, 'sold'));
      return `201 with pet ${pet.id}`;
    },
  }),
  defineCheck('4.2', 'spec', {
    id: 'create/without-status',
    title: 'createPet accepts a NewPet without the optional status',
    source: 'spec 2, 4.2',
    async run(context) {
      const { pet } = await expectCreated(context, newPet(context, 'without-status', 8));
      return `201 with pet ${pet.id}`;
    },
  }),
  defineCheck('4.2', 'spec', {
    id: 'create/distinct-ids',
    title: 'createPet assigns each new pet an id of its own',
    source: 'spec 2 (Pet.id: unique), 4.2',
    async run(context) {
      const first = await expectCreated(context, newPet(context, 'distinct-1', 9));
      const second = await expectCreated(context, newPet(context, 'distinct-2', 9));
      if (first.pet.id === second.pet.id) fail(second.answer, `201 with an id other than ${first.pet.id}, the previous pet's [spec 2]`);
      return `ids ${first.pet.id} and ${second.pet.id}`;
    },
  }),
  ...INVALID_BODIES.map((invalid) => defineCheck('4.2', 'spec', {
    id: `create/${invalid.id}`,
    title: `createPet ${invalid.title} answers 400 with the Error body`,
    source: 'spec 4.2, 7',
    async run(context) {
      const error = expectError(await create(context, invalid.body(context)), 400, 'a required field is missing or a value is invalid [spec 4.2]');
      return `400 ${error.code}`;
    },
  })),
];

/** A 400 `validation_failed` whose `details` name every field in `fields`. */
function expectDetails(answer: Answer, fields: readonly string[], why: string): SpecError {
  const expected = `400 validation_failed with \`details\` naming ${fields.map((field) => `\`${field}\``).join(', ')} (${why})`;
  const error = expectError(answer, 400, why);
  const details: unknown = isObject(answer.json) ? answer.json['details'] : undefined;
  const named = Array.isArray(details) ? details.map((detail: unknown) => (isObject(detail) ? detail['field'] : undefined)) : [];
  if (error.code !== 'validation_failed' || fields.some((field) => !named.includes(field))) fail(answer, expected);
  return error;
}

/** A body larger than the 64 KiB limit, padded with JSON white space so that a server without a limit stores an ordinary pet. */
function oversizedBody(context: CheckContext): string {
  return `${JSON.stringify(newPet(context, 'oversized', 1))}${' '.repeat(65_536)}`;
}

/** The checks of this project's decisions about createPet. */
const REFERENCE_CHECKS: Check[] = [
  defineCheck('4.2', 'reference', {
    id: 'create/location',
    title: 'createPet answers 201 with a Location naming the new pet',
    source: clauseDecision('4.2', 'RFC 9110 §15.3.2'),
    async run(context) {
      const { pet, answer } = await expectCreated(context, newPet(context, 'location', 10));
      const location = answer.headers.get('location');
      const expected = `${context.baseUrl}/pets/${pet.id}`;
      if (location === null || new URL(location, answer.request.url).href !== expected) fail(answer, `201 with Location: ${expected}`, describeAnswer(answer, ['Location']));
      return `Location: ${location}`;
    },
  }),
  defineCheck('4.2', 'reference', {
    id: 'create/no-default-status',
    title: 'createPet leaves `status` out of a pet created without one',
    source: decision('Default `status`'),
    async run(context) {
      const { pet, answer } = await expectCreated(context, newPet(context, 'no-default-status', 11));
      if (pet.status !== undefined) fail(answer, '201 with a Pet without `status`: "No default is given" [spec 2]');
      return `201 with pet ${pet.id}, no status`;
    },
  }),
  defineCheck('4.2', 'reference', {
    id: 'create/unknown-field',
    title: 'createPet rejects unknown fields, `id` included, with 400 validation_failed',
    source: decision('Unknown fields (`id`, `__proto__`, …)'),
    async run(context) {
      for (const [field, value] of [['colour', 'red'], ['id', 1]] as const) {
        expectDetails(await create(context, { ...newPet(context, `unknown-${field}`, 1), [field]: value }), [field], `\`${field}\` is not a NewPet field`);
      }
      return '400 validation_failed naming `colour`, then `id`';
    },
  }),
  defineCheck('4.2', 'reference', {
    id: 'create/every-violation-listed',
    title: 'createPet lists every problem of a body in `details` at once',
    source: decision('Every problem or the first?'),
    async run(context) {
      expectDetails(await create(context, { name: 7, categoryId: 'seven', status: 'lost' }), ['name', 'categoryId', 'status'], 'three invalid fields');
      return '400 validation_failed naming `name`, `categoryId` and `status`';
    },
  }),
  defineCheck('4.2', 'reference', {
    id: 'create/invalid-json',
    title: 'createPet answers a body that is not JSON with 400 invalid_json',
    source: clauseDecision('4.2', 'RFC 8259'),
    async run(context) {
      const answer = await context.send({ method: 'POST', path: '/pets', body: '{"name":', headers: { 'Content-Type': 'application/json' }, operation: 'createPet' });
      return expectErrorCode(answer, 400, 'invalid_json', 'the body is not JSON');
    },
  }),
  defineCheck('4.2', 'reference', {
    id: 'create/unsupported-media-type',
    title: 'createPet answers a body sent as text/plain with 415 and Accept-Post: application/json',
    source: clauseDecision('5.5', 'RFC 9110 §15.5.16'),
    async run(context) {
      const body = JSON.stringify(newPet(context, 'text-plain', 1));
      const answer = await context.send({ method: 'POST', path: '/pets', body, headers: { 'Content-Type': 'text/plain' }, operation: 'createPet' });
      expectError(answer, 415, 'the body is not sent as application/json [spec 5.5]');
      if (answer.headers.get('accept-post') !== 'application/json') fail(answer, '415 with Accept-Post: application/json', describeAnswer(answer, ['Accept-Post']));
      return '415 with Accept-Post: application/json';
    },
  }),
  defineCheck('4.2', 'reference', {
    id: 'create/payload-too-large',
    title: 'createPet answers a body over 64 KiB with 413',
    source: decision('Request size limit'),
    async run(context) {
      const answer = await context.send({ method: 'POST', path: '/pets', body: oversizedBody(context), headers: { 'Content-Type': 'application/json' }, operation: 'createPet' });
      const error = expectError(answer, 413, 'the body is over the 64 KiB limit');
      return `413 ${error.code}`;
    },
  }),
];

/** The checks of createPet [spec 4.2]. */
export const CREATE_PET_CHECKS: readonly Check[] = [...SPEC_CHECKS, ...REFERENCE_CHECKS];
