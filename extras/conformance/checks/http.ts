import { clauseDecision, decision, defineCheck, newPet, somePetId } from '../check.js';
import type { Check, CheckContext } from '../check.js';
import type { Answer } from '../exchange.js';
import { describeAnswer, expectError, expectStatus, fail, isJsonContentType } from '../expect.js';

/** The methods an `Allow` header lists (RFC 9110 §10.2.1), in upper case. */
function allowed(answer: Answer): string[] {
  return (answer.headers.get('allow') ?? '').split(',').map((method) => method.trim().toUpperCase()).filter((method) => method !== '');
}

/** The answer's Allow lists at least these methods. */
function expectAllow(answer: Answer, methods: readonly string[], expected: string): void {
  const listed = allowed(answer);
  if (methods.some((method) => !listed.includes(method))) fail(answer, `${expected} with Allow listing ${methods.join(', ')}`, describeAnswer(answer, ['Allow']));
}

/** A HEAD answers like GET without a body (RFC 9110 §9.3.2): the GET's status and media type. */
async function expectHead(context: CheckContext, path: string, extraHeader?: string): Promise<Answer> {
  const answer = await context.send({ method: 'HEAD', path });
  const expected = `200 with no body, Content-Type: application/json${extraHeader === undefined ? '' : ` and ${extraHeader}`}, as GET would (RFC 9110 §9.3.2)`;
  const hasExtra = extraHeader === undefined || answer.headers.get(extraHeader) !== null;
  if (answer.status !== 200 || answer.text !== '' || !isJsonContentType(answer.headers.get('content-type')) || !hasExtra) {
    fail(answer, expected, describeAnswer(answer, extraHeader === undefined ? [] : [extraHeader]));
  }
  return answer;
}

/** The checks of HTTP behaviour around the operations, as this project decided it. */
export const HTTP_CHECKS: readonly Check[] = [
  defineCheck('4', 'reference', {
    id: 'http/method-not-allowed',
    title: 'A known path answers another method with 405 and Allow',
    source: decision('Order of checks', 'RFC 9110 §15.5.6'),
    async run(context) {
      const onPets = await context.send({ method: 'DELETE', path: '/pets' });
      expectError(onPets, 405, '/pets does not answer DELETE');
      expectAllow(onPets, ['GET', 'POST'], '405');
      const onPet = await context.send({ method: 'PUT', path: `/pets/${await somePetId(context)}`, json: newPet(context, 'put', 1) });
      expectError(onPet, 405, '/pets/{petId} does not answer PUT');
      expectAllow(onPet, ['GET'], '405');
      return `Allow: ${allowed(onPets).join(', ')} and ${allowed(onPet).join(', ')}`;
    },
  }),
  defineCheck('4.1', 'reference', {
    id: 'http/head/listPets',
    title: 'HEAD on /pets answers the headers of listPets without a body',
    source: decision('`HEAD`', 'RFC 9110 §9.3.2'),
    async run(context) {
      await expectHead(context, '/pets?limit=1');
      return '200 without a body';
    },
  }),
  defineCheck('4.3', 'reference', {
    id: 'http/head/getPet',
    title: 'HEAD on /pets/{petId} answers the headers of getPet without a body',
    source: decision('`HEAD`', 'RFC 9110 §9.3.2'),
    async run(context) {
      const { pets } = await context.fixture();
      const id = (pets[0] as { id: number }).id;
      const head = await expectHead(context, `/pets/${id}`, 'Deprecation');
      const get = await context.send({ method: 'GET', path: `/pets/${id}`, operation: 'getPet' });
      expectStatus(get, 200, `200 with pet ${id}`);
      const length = head.headers.get('content-length');
      if (length !== null && length !== String(new TextEncoder().encode(get.text).length)) {
        fail(head, `Content-Length of the GET's body, ${new TextEncoder().encode(get.text).length} bytes`, describeAnswer(head, ['Content-Length']));
      }
      return '200 without a body, with the GET\'s headers';
    },
  }),
  defineCheck('4', 'reference', {
    id: 'http/options',
    title: 'OPTIONS on a known path answers 204 with Allow, without a key',
    source: decision('Requests served without a key', 'RFC 9110 §9.3.7'),
    async run(context) {
      const onPets = await context.send({ method: 'OPTIONS', path: '/pets', credential: 'none' });
      expectStatus(onPets, 204, '204 with Allow, without a key');
      expectAllow(onPets, ['GET', 'HEAD', 'POST', 'OPTIONS'], '204');
      const onPet = await context.send({ method: 'OPTIONS', path: `/pets/${await somePetId(context)}`, credential: 'none' });
      expectStatus(onPet, 204, '204 with Allow, without a key');
      expectAllow(onPet, ['GET', 'HEAD', 'OPTIONS'], '204');
      return `Allow: ${allowed(onPets).join(', ')} and ${allowed(onPet).join(', ')}`;
    },
  }),
  defineCheck('4.4', 'reference', {
    id: 'http/unknown-path',
    title: 'A path the interface does not describe (GET /store/orders) answers 404 with the Error body',
    source: clauseDecision('4.4', 'spec 4.4: the store area is named only'),
    async run(context) {
      const error = expectError(await context.send({ method: 'GET', path: '/store/orders' }), 404, '/store/orders is not described [spec 4.4]');
      return `404 ${error.code}`;
    },
  }),
  defineCheck('5.1', 'reference', {
    id: 'http/auth-first',
    title: 'Without a key, an unknown path, a wrong method and a wrong media type all answer 401',
    source: decision('Order of checks'),
    async run(context) {
      const requests = [
        { method: 'GET', path: '/store/orders' },
        { method: 'DELETE', path: '/pets' },
        { method: 'POST', path: '/pets', body: JSON.stringify(newPet(context, 'auth-first', 1)), headers: { 'Content-Type': 'text/plain' } },
      ];
      for (const request of requests) expectError(await context.send({ ...request, credential: 'none' }), 401, 'auth comes first, so a client without a key learns nothing');
      return '401 for each';
    },
  }),
];
