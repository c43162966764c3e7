import { createMemoryStorage } from '../../lib/index.js';
import { runStorageContract } from '../../lib/testing/index.js';

runStorageContract('memory', { makeStorage: createMemoryStorage });
