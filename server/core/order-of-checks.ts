/**
 * The order of checks, stated once: `answer` and `answerApi` in core.ts, then createPet's
 * `parseIdempotencyKey` and `readJsonBody`,
 * run them in this order, and the reference page and the docs show this list. An unauthenticated
 * request learns nothing, a client sees its most fundamental problem first, and a request refused
 * on its head never has its body read. The host's extra routes come first: they are the host's, not
 * the interface's.
 */
export const ORDER_OF_CHECKS: readonly string[] = [
  'the host\'s extra routes (no key)', '`Host` (400)', 'base path (404)', '`OPTIONS` on a known path (204, no key)', 'auth (401)', 'path (404)',
  'method (405)', '`Idempotency-Key` on a create (400 `invalid_idempotency_key`)', 'media type (415)', 'size (413)', 'JSON (400 `invalid_json`)', 'schema (400 `validation_failed`)',
];
