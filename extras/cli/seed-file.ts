import { PetstoreError, seedPets } from '../../lib/index.js';
import type { PetstoreApi, SeedReport } from '../../lib/index.js';
import type { Logger } from '../../server/node/index.js';
import type { ReadText } from './api-keys.js';
import { UsageError } from './command-line.js';
import { reasonOf } from './reasons.js';
import type { NamedFile } from './serve-config.js';

/** A seed file's content, parsed but not yet checked. */
export interface SeedFile extends NamedFile {
  input: unknown;
}

/** Reads and parses the seed file; one that cannot be read or is not JSON refuses to start. */
export async function readSeedFile(file: NamedFile, readText: ReadText): Promise<SeedFile> {
  let text: string;
  try {
    text = await readText(file.path);
  } catch (error) {
    throw new UsageError(`${file.sourceName}: cannot read ${file.path} (${reasonOf(error)})`);
  }
  try {
    return { ...file, input: JSON.parse(text) };
  } catch (error) {
    throw new UsageError(`${file.sourceName}: ${file.path} is not JSON (${reasonOf(error)})`);
  }
}

/** Seeds the store from the file and logs what was done; an invalid entry refuses to start, naming every problem. */
export async function seedStore(store: PetstoreApi, seed: SeedFile, log: Logger): Promise<void> {
  let report: SeedReport;
  try {
    report = await seedPets(store, seed.input);
  } catch (error) {
    if (!(error instanceof PetstoreError) || error.code !== 'validation_failed') throw error;
    // The message names the first problem; with more, each gets a line of its own.
    const details = error.details ?? [];
    const problems = details.length < 2 ? [] : details.map((detail) => `\n  ${detail.field === '' ? '' : `${detail.field}: `}${detail.message}`);
    throw new UsageError(`${seed.sourceName}: ${seed.path}: ${error.message}${problems.join('')}`);
  }
  if (report.skipped) log({ level: 'info', msg: 'Seed skipped', file: seed.path, reason: 'the store already holds pets' });
  else log({ level: 'info', msg: 'Pets seeded', file: seed.path, seeded: report.seeded });
}
