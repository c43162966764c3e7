import { createMemoryStorage } from '../../../../lib/index.js';
import { runStorageContract } from '../../../../testing/index.js';

runStorageContract('memory', { makeStorage: createMemoryStorage });
