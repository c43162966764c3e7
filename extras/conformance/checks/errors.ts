import { defineCheck, missingPetId } from '../check.js';
import type { Check, CheckContext } from '../check.js';
import type { Answer, RequestSpec } from '../exchange.js';
import { CheckSkipped, expectError } from '../expect.js';

/** Requests each answered with an error by a conforming server [spec 7]: a 401, a 400 and a 404. */
async function failingRequests(context: CheckContext): Promise<RequestSpec[]> {
  const requests: RequestSpec[] = [
    { method: 'GET', path: '/pets', credential: 'none', operation: 'listPets' },
    { method: 'POST', path: '/pets', json: { categoryId: 1 }, operation: 'createPet' },
  ];
  const id = await missingPetId(context).catch(() => undefined);
  if (id !== undefined) requests.push({ method: 'GET', path: `/pets/${id}`, operation: 'getPet' });
  return requests;
}

/** The checks of the Error body [spec 2, 7]. */
export const ERROR_CHECKS: readonly Check[] = [
  defineCheck('7', 'spec', {
    id: 'errors/status-matches',
    title: 'Every error answer has the Error body, whose status is the HTTP status',
    source: 'spec 2 (Error.status), 7',
    async run(context) {
      const judged: Answer[] = [];
      for (const request of await failingRequests(context)) {
        const answer = await context.send(request);
        if (answer.status < 400) continue;
        expectError(answer, answer.status, 'every error uses the Error body [spec 7]');
        judged.push(answer);
      }
      if (judged.length === 0) throw new CheckSkipped('no request meant to fail was answered with an error');
      return `Error bodies of ${judged.map((answer) => answer.status).join(', ')}, each with that status`;
    },
  }),
];
