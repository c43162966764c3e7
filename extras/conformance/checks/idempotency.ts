import { decision, defineCheck, newPet } from '../check.js';
import type { Check, CheckContext, NewPetBody } from '../check.js';
import type { Answer } from '../exchange.js';
import { describeAnswer, echoes, expectError, expectPet, fail } from '../expect.js';
import type { SpecPet } from '../spec.js';

/** How many creates with one key `idempotency/concurrent` sends at once. */
const CONCURRENT_SENDS = 6;

/** The answer headers these checks show on a failure. */
const SHOWN_HEADERS = ['Location', 'Idempotent-Replayed', 'Retry-After'];

/** An `Idempotency-Key` of this run, as a Structured Field String [draft-ietf-httpapi-idempotency-key-header-07 §2.1]. */
function keyOf(context: CheckContext, suffix: string): string {
  return `"${context.petName(`key-${suffix}`)}"`;
}

/** Sends createPet with a JSON body and this `Idempotency-Key` value. */
function createWithKey(context: CheckContext, body: NewPetBody, key: string): Promise<Answer> {
  return context.send({ method: 'POST', path: '/pets', json: body, headers: { 'Idempotency-Key': key }, operation: 'createPet' });
}

/** The 201 of a first create with a key: the Pet echoing the body, without the replay mark. */
function expectFirstCreate(answer: Answer, body: NewPetBody): SpecPet {
  const expected = '201 with a Pet echoing the fields sent, without Idempotent-Replayed (a first create with a key)';
  const pet = expectPet(answer, 201, expected);
  if (!echoes(pet, body) || answer.headers.get('idempotent-replayed') !== null) fail(answer, expected, describeAnswer(answer, SHOWN_HEADERS));
  return pet;
}

/** The checks of the decided `Idempotency-Key` on createPet, an extension the interface is silent on. */
export const IDEMPOTENCY_CHECKS: readonly Check[] = [
  defineCheck('4.2', 'reference', {
    id: 'idempotency/replay',
    title: 'createPet repeated with the same Idempotency-Key and body answers 201 with the same pet and Location, marked Idempotent-Replayed',
    source: decision('Replaying a create with the same `Idempotency-Key`', 'draft-ietf-httpapi-idempotency-key-header-07 §2.6'),
    async run(context) {
      const body = newPet(context, 'idempotency-replay', 12, 'pending');
      const key = keyOf(context, 'replay');
      const first = await createWithKey(context, body, key);
      const pet = expectFirstCreate(first, body);
      const again = await createWithKey(context, body, key);
      const expected = `201 with pet ${pet.id} again, Location ${first.headers.get('location') ?? '(none)'} and Idempotent-Replayed: true`;
      const replayed = expectPet(again, 201, expected);
      if (replayed.id !== pet.id || !echoes(replayed, body) || again.headers.get('location') !== first.headers.get('location') || again.headers.get('idempotent-replayed') !== 'true') {
        fail(again, expected, describeAnswer(again, SHOWN_HEADERS));
      }
      return `pet ${pet.id} twice, the second marked Idempotent-Replayed: true`;
    },
  }),
  defineCheck('4.2', 'reference', {
    id: 'idempotency/key-reused',
    title: 'createPet with an Idempotency-Key already used for another body answers 422 idempotency_key_reused',
    source: decision('An `Idempotency-Key` reused with another body', 'draft-ietf-httpapi-idempotency-key-header-07 §2.7'),
    async run(context) {
      const key = keyOf(context, 'reused');
      const body = newPet(context, 'idempotency-reused', 13);
      expectFirstCreate(await createWithKey(context, body, key), body);
      const answer = await createWithKey(context, { ...body, categoryId: 14 }, key);
      const error = expectError(answer, 422, 'the key was already used with another body');
      if (error.code !== 'idempotency_key_reused') fail(answer, '422 with code idempotency_key_reused');
      return `422 ${error.code}`;
    },
  }),
  defineCheck('4.2', 'reference', {
    id: 'idempotency/concurrent',
    title: 'createPet sent several times at once with one Idempotency-Key stores one pet: each answer is that pet, or 409 with Retry-After',
    source: decision('Creates with one `Idempotency-Key` at the same time', 'draft-ietf-httpapi-idempotency-key-header-07 §2.7'),
    async run(context) {
      const key = keyOf(context, 'concurrent');
      const body = newPet(context, 'idempotency-concurrent', 15, 'available');
      const answers = await Promise.all(Array.from({ length: CONCURRENT_SENDS }, () => createWithKey(context, body, key)));
      const ids = new Set<number>();
      let conflicts = 0;
      for (const answer of answers) {
        if (answer.status === 409) {
          const error = expectError(answer, 409, 'a create with this key is still in flight');
          if (error.code !== 'idempotency_key_in_use' || !/^[0-9]+$/.test(answer.headers.get('retry-after') ?? '')) {
            fail(answer, '409 with code idempotency_key_in_use and Retry-After in seconds', describeAnswer(answer, SHOWN_HEADERS));
          }
          conflicts++;
        } else {
          const pet = expectPet(answer, 201, '201 with the one pet of this key, or 409 while its first create is in flight');
          if (!echoes(pet, body)) fail(answer, '201 with a Pet echoing the fields sent');
          ids.add(pet.id);
        }
      }
      const last = answers.at(-1) as Answer;
      if (ids.size !== 1) fail(last, `every 201 with one and the same pet; received ${ids.size} pets (${[...ids].join(', ')})`);
      const [id] = ids;
      const stored = await context.send({ method: 'GET', path: `/pets/${id}`, operation: 'getPet' });
      const expected = `200 with pet ${id}, the one stored for the key`;
      if (!echoes(expectPet(stored, 200, expected), body)) fail(stored, expected);
      return `${CONCURRENT_SENDS - conflicts} answers with pet ${id}, ${conflicts} with 409`;
    },
  }),
  defineCheck('4.2', 'reference', {
    id: 'idempotency/malformed-key',
    title: 'createPet with an empty or malformed Idempotency-Key answers 400 invalid_idempotency_key and stores nothing',
    source: decision('`Idempotency-Key` syntax', 'draft-ietf-httpapi-idempotency-key-header-07 §2.1, RFC 8941 §3.3.3'),
    async run(context) {
      for (const key of ['""', '"unterminated', 'two words']) {
        const answer = await createWithKey(context, newPet(context, 'idempotency-malformed', 16), key);
        const error = expectError(answer, 400, `\`Idempotency-Key: ${key}\` is not a key`);
        if (error.code !== 'invalid_idempotency_key') fail(answer, '400 with code invalid_idempotency_key');
      }
      return '400 invalid_idempotency_key for an empty, an unterminated and an unquoted key with a space';
    },
  }),
];
