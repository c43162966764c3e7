// A child process for the lock tests: opens the storage at argv[2], says so, and holds it until killed.
import { createFileStorage } from '../../../extras/file-storage/index.js';

const path = process.argv[2];
if (path === undefined) throw new Error('usage: hold-storage.ts <journal path>');
await createFileStorage(path);
process.stdout.write('ready\n');
setInterval(() => undefined, 60_000);
