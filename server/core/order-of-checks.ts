/**
 * The order of checks, each with the clause it holds (sections of the interface, or an RFC) and, for the
 * checks of a body, the one operation they run on: the documents quote the checks, and the reference page's
 * console explains every answer by this list. The code that runs them is core.ts's `answer` and `answerApi`,
 * then createPet's `parseIdempotencyKey` and `readJsonBody`; test/docs/order-of-checks.test.ts sends, for
 * each entry, a request failing it and the checks after it and expects this entry's answer, so the list
 * cannot drift from what runs. An unauthenticated request learns nothing, a client sees its most fundamental
 * problem first, a request refused on its head never has its body read, and the host's routes come first.
 */
export const ORDER_OF_CHECKS: readonly (readonly [check: string, clause: string, operation?: string])[] = [
  ['the root routes of the host and its plug-ins (no key)', '5.1'], ['`Host` (400)', 'RFC 9112 §3.2'], ['base path (404)', '1, 9'],
  ['`OPTIONS` on a known path (204, no key)', '5.1'], ['auth (401)', '5.4'], ['path (404)', '4'], ['method (405)', '4'],
  ['`Idempotency-Key` on a create (400 `invalid_idempotency_key`)', '4.2', 'createPet'], ['media type (415)', '5.5', 'createPet'],
  ['size (413)', '8', 'createPet'], ['JSON (400 `invalid_json`)', '4.2', 'createPet'], ['schema (400 `validation_failed`)', '2, 4.2', 'createPet'],
];
