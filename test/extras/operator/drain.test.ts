import { describe, test } from 'node:test';
import { createMemoryStorage } from '../../../lib/index.js';
import { CLIENTS, DELAY, drainUnderLoad } from '../../support/drain-under-load.js';

describe('close({ delay }) under load', () => {
  test(`close({ delay: ${DELAY} }) with ${CLIENTS} clients creating and listing: /readyz fails at once, requests keep succeeding during the delay, none is lost, and every acknowledged create is stored`, async () => {
    const storage = createMemoryStorage();
    await drainUnderLoad(storage, () => storage);
  });
});
