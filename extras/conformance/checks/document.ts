import { defineCheck } from '../check.js';
import type { Check, CheckContext } from '../check.js';
import type { Answer, RequestSpec } from '../exchange.js';
import { describeDepartures, fail } from '../expect.js';

/** The operations whose answers are held against the OpenAPI document, with a request to send when the run has none yet. */
const OPERATIONS: readonly { operationId: string; clause: string; request: (context: CheckContext) => Promise<RequestSpec> }[] = [
  { operationId: 'listPets', clause: '4.1', request: async () => ({ method: 'GET', path: '/pets?limit=1' }) },
  { operationId: 'createPet', clause: '4.2', request: async (context) => ({ method: 'POST', path: '/pets', json: { name: context.petName('document'), categoryId: 1 } }) },
  { operationId: 'getPet', clause: '4.3', request: async (context) => ({ method: 'GET', path: `/pets/${(await context.fixture()).maxId}` }) },
];

/** The body as the validator takes it: parsed JSON, the text when it is not JSON, undefined when empty. */
function bodyOf(answer: Answer): unknown {
  return answer.json ?? (answer.text === '' ? undefined : answer.text);
}

/**
 * The checks that hold every answer of the run to the OpenAPI document (validateResponse): each runs
 * after the others, so it sees their answers.
 */
export const DOCUMENT_CHECKS: readonly Check[] = OPERATIONS.map(({ operationId, clause, request }) => defineCheck(clause, 'reference', {
  id: `document/${operationId}`,
  title: `Every ${operationId} answer of the run matches the OpenAPI document (openapi.json)`,
  source: `openapi.json, operation ${operationId} (createOpenApiDocument)`,
  async run(context) {
    let answers = context.answersTo(operationId);
    if (answers.length === 0) answers = [await context.send({ ...(await request(context)), operation: operationId })];
    for (const answer of answers) {
      const departures = context.validate(operationId, answer.status, answer.headers, bodyOf(answer));
      if (departures.length > 0) fail(answer, `an answer openapi.json documents for ${operationId}`, `${answer.status} with ${describeDepartures(departures)}`);
    }
    return `${answers.length} answer(s) as documented`;
  },
}));
