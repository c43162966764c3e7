import { clauseDecision, defineCheck, newPet, somePetId } from '../check.js';
import type { Check, CheckContext } from '../check.js';
import type { Credential, RequestSpec } from '../exchange.js';
import { describeAnswer, expectError, fail } from '../expect.js';
import { expectListedPets } from '../leftovers.js';

/** A request to each operation of the interface [spec 4], for sending without a valid key. */
const OPERATIONS: readonly { operation: string; request: (context: CheckContext) => Promise<RequestSpec> }[] = [
  { operation: 'listPets', request: async () => ({ method: 'GET', path: '/pets' }) },
  { operation: 'createPet', request: async (context) => ({ method: 'POST', path: '/pets', json: newPet(context, 'unauthorized', 1) }) },
  { operation: 'getPet', request: async (context) => ({ method: 'GET', path: `/pets/${await somePetId(context)}` }) },
];

/**
 * The two ways a key can be wrong [spec 5.4: "missing or invalid"], and the challenge each 401 carries:
 * no error code without a key (RFC 6750 §3), `invalid_token` for an unknown one (§3.1).
 */
const WRONG_KEYS: readonly {
  name: string; credential: Credential; words: string; keyIs: string; title: string; rfc: string; expected: string; isRight: (challenge: string) => boolean;
}[] = [
  {
    name: 'missing-key',
    credential: 'none',
    words: 'without a key',
    keyIs: 'missing',
    title: 'A 401 without a key carries a Bearer challenge without an error code',
    rfc: 'RFC 6750 §3',
    expected: 'WWW-Authenticate: Bearer realm="…", without error= (RFC 6750 §3: no error code when no credential was sent)',
    isRight: (challenge) => !/error=/i.test(challenge),
  },
  {
    name: 'invalid-key',
    credential: 'invalid-key',
    words: 'with a key the server does not know',
    keyIs: 'invalid',
    title: 'A 401 for an unknown key carries a Bearer challenge with error="invalid_token"',
    rfc: 'RFC 6750 §3.1',
    expected: 'WWW-Authenticate: Bearer realm="…", error="invalid_token" (RFC 6750 §3.1)',
    isRight: (challenge) => /error="invalid_token"/.test(challenge),
  },
];

/** Every operation answers 401 with the Error body when the key is missing or invalid [spec 5.1, 5.4, 7]. */
const REQUIRED_KEY_CHECKS: Check[] = WRONG_KEYS.flatMap((wrongKey) => OPERATIONS.map(({ operation, request }) => defineCheck('5.4', 'spec', {
  id: `auth/${wrongKey.name}/${operation}`,
  title: `${operation} ${wrongKey.words} answers 401 with the Error body`,
  source: 'spec 5.1, 5.4, 7',
  async run(context) {
    const answer = await context.send({ ...(await request(context)), credential: wrongKey.credential, operation });
    const error = expectError(answer, 401, `the key is ${wrongKey.keyIs} [spec 5.4]`);
    return `401 ${error.code}`;
  },
})));

/** The `WWW-Authenticate` of each 401, then the scheme's case. */
const CHALLENGE_CHECKS: Check[] = [
  ...WRONG_KEYS.map((expectation) => defineCheck('5.4', 'reference', {
    id: `auth/challenge/${expectation.name}`,
    title: expectation.title,
    source: clauseDecision('5.4', expectation.rfc),
    async run(context) {
      const answer = await context.send({ method: 'GET', path: '/pets', credential: expectation.credential, operation: 'listPets' });
      expectError(answer, 401, `the key is ${expectation.keyIs}`);
      const challenge = answer.headers.get('www-authenticate') ?? '';
      if (!/^Bearer\s+realm="[^"]*"/i.test(challenge) || !expectation.isRight(challenge)) fail(answer, expectation.expected, describeAnswer(answer, ['WWW-Authenticate']));
      return challenge;
    },
  })),
  defineCheck('5.2', 'reference', {
    id: 'auth/scheme-case-insensitive',
    title: 'The key is accepted with the scheme written `bearer`, as scheme names are case-insensitive',
    source: clauseDecision('5.2', 'RFC 9110 §11.1'),
    async run(context) {
      const answer = await context.send({ method: 'GET', path: '/pets?limit=1', credential: 'lower-case-scheme', operation: 'listPets' });
      const pets = expectListedPets(context, answer, '200 with Pets: `bearer <key>` is the same credential as `Bearer <key>` (RFC 9110 §11.1)');
      return `200 with ${pets.length} pet(s)`;
    },
  }),
];

/** The checks of authentication [spec 5]. */
export const AUTH_CHECKS: readonly Check[] = [...REQUIRED_KEY_CHECKS, ...CHALLENGE_CHECKS];
