/**
 * The order of checks as a list the documents and the reference page quote. The code that runs them
 * is core.ts's `answer` and `answerApi`, then createPet's `parseIdempotencyKey` and `readJsonBody`;
 * test/docs/order-of-checks.test.ts sends, for each entry, a request failing it and the checks after
 * it and expects this entry's answer, so the list cannot drift from what runs. An unauthenticated
 * request learns nothing, a client sees its most fundamental problem first, and a request refused
 * on its head never has its body read. The host's extra routes come first: they are the host's, not
 * the interface's.
 */
export const ORDER_OF_CHECKS: readonly string[] = [
  'the host\'s extra routes (no key)', '`Host` (400)', 'base path (404)', '`OPTIONS` on a known path (204, no key)', 'auth (401)', 'path (404)',
  'method (405)', '`Idempotency-Key` on a create (400 `invalid_idempotency_key`)', 'media type (415)', 'size (413)', 'JSON (400 `invalid_json`)', 'schema (400 `validation_failed`)',
];
