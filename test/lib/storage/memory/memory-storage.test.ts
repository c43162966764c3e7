import { createMemoryStorage } from '../../../../lib/index.js';
import { runStorageContract } from '../../../../server/testing/index.js';

runStorageContract('memory', { makeStorage: createMemoryStorage });
