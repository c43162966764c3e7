import type { Pet } from '../../pet.js';
import { errorMessageOf, errorCode } from './file-system.js';
import type { StorageFile } from './file-system.js';
import { FRAME_HEADER_SIZE, MAX_PAYLOAD_SIZE } from './journal-format.js';
import type { Durability, JournalStats } from './journal-types.js';
import { writeFailure } from './write-failure.js';
import type { WriteFailure } from './write-failure.js';

/** One record waiting for its batch. */
interface PendingRecord {
  frame: Buffer;
  pet: Pet;
  resolve: (pet: Pet) => void;
  reject: (error: unknown) => void;
}

/** What the writer needs besides the open journal. */
export interface JournalWriterOptions {
  /** The journal file path, for the log. */
  path: string;
  durability: Durability;
  /** Called for each record once it is durable, in id order, before its insert resolves. */
  onCommit: (pet: Pet) => void;
  log: (line: string) => void;
}

/** Bytes of the test write that ends a failure: room for the largest record. */
export const PROBE_SIZE = FRAME_HEADER_SIZE + MAX_PAYLOAD_SIZE;

/** The test write's filler: not zeros, which some file systems store as holes that need no space; no record frame can start with it. */
export const PROBE_BYTE = 0xa5;

/** A failure episode: from a failed write until a record is durable again. */
interface Episode {
  /** Ids given to records that failed in this episode: none of them is stored, and none is handed out again. */
  firstSkippedId: number;
  lastSkippedId: number;
}

/**
 * Appends records with group commit: the first record goes out at once; records that arrive while a
 * write and sync are in flight wait and go out together as the next batch, with one write and one
 * fdatasync. Every record is durable before its promise resolves. After a write error the writer
 * refuses records until `recover` proves that writes work again: it writes and syncs a test block at
 * the end of the last acknowledged record, then cuts the file back to that end.
 */
export class JournalWriter {
  readonly #file: StorageFile;
  readonly #options: JournalWriterOptions;
  #end: number;
  #queue: PendingRecord[] = [];
  #running: Promise<void> | undefined;
  #failure: WriteFailure | undefined;
  #recovering: Promise<WriteFailure | undefined> | undefined;
  #episode: Episode | undefined;
  #isUnsynced = false;
  readonly #stats: JournalStats = { records: 0, writes: 0, syncs: 0 };

  constructor(file: StorageFile, end: number, options: JournalWriterOptions) {
    this.#file = file;
    this.#end = end;
    this.#options = options;
  }

  /** Why writes are refused since a write failed, or undefined while writes work. */
  get failure(): WriteFailure | undefined {
    return this.#failure;
  }

  /** A copy of the counters. */
  stats(): JournalStats {
    return { ...this.#stats };
  }

  /** Queues a framed record; resolves with `pet` once the record is durable (per the durability mode). */
  append(frame: Buffer, pet: Pet): Promise<Pet> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure.createError);
    return new Promise<Pet>((resolve, reject) => {
      this.#queue.push({ frame, pet, resolve, reject });
      // Starting on the next turn of the event loop lets every request that arrived in this turn join the first batch.
      this.#running ??= new Promise<void>((started) => setImmediate(started)).then(() => this.#run());
    });
  }

  /** Resolves when every queued record has been written or rejected and no recovery is under way. */
  async drain(): Promise<void> {
    while (this.#running !== undefined || this.#recovering !== undefined) await (this.#running ?? this.#recovering);
  }

  /**
   * After a failed write, tries once to make the journal writable again (concurrent callers share the
   * attempt); resolves with the failure that remains, or undefined when records are accepted again.
   */
  recover(): Promise<WriteFailure | undefined> {
    if (this.#failure === undefined) return Promise.resolve(undefined);
    this.#recovering ??= this.#attemptRecovery().finally(() => {
      this.#recovering = undefined;
    });
    return this.#recovering;
  }

  /** Flushes what `write` mode left in the page cache: called on close. */
  async syncIfNeeded(): Promise<void> {
    if (!this.#isUnsynced || this.#failure !== undefined) return;
    await this.#file.datasync();
    this.#isUnsynced = false;
  }

  async #run(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue;
      this.#queue = [];
      try {
        await this.#writeBatch(batch);
      } catch (error) {
        await this.#fail(error, batch);
        break;
      }
      for (const record of batch) {
        this.#options.onCommit(record.pet);
        record.resolve(record.pet);
      }
      if (this.#episode !== undefined) this.#endEpisode();
    }
    this.#running = undefined;
  }

  async #writeBatch(batch: readonly PendingRecord[]): Promise<void> {
    const data = batch.length === 1 ? (batch[0] as PendingRecord).frame : Buffer.concat(batch.map((record) => record.frame));
    let written = 0;
    while (written < data.length) {
      const count = await this.#file.write(data, written, data.length - written, this.#end + written);
      if (count <= 0) throw new Error(`write(2) made no progress at byte ${this.#end + written}`);
      written += count;
    }
    this.#stats.writes++;
    if (this.#options.durability === 'fsync') {
      await this.#file.datasync();
      this.#stats.syncs++;
    } else {
      this.#isUnsynced = true;
    }
    this.#end += data.length;
    this.#stats.records += batch.length;
  }

  /** Enters the failed state: logs the cause once per episode, cuts the unacknowledged bytes off, and rejects every waiting record. */
  async #fail(cause: unknown, batch: readonly PendingRecord[]): Promise<void> {
    const failure = writeFailure(this.#options.path, cause);
    this.#failure = failure;
    const waiting = [...batch, ...this.#queue];
    this.#queue = [];
    const firstId = (waiting[0] as PendingRecord).pet.id;
    const lastId = (waiting.at(-1) as PendingRecord).pet.id;
    if (this.#episode === undefined) {
      this.#episode = { firstSkippedId: firstId, lastSkippedId: lastId };
      this.#note(
        `petstore: writing ${this.#options.path} at byte ${this.#end} failed (${errorCode(cause) ?? errorMessageOf(cause)}); `
        + 'creates answer 503 until writes work again, which the storage tries with each create and readiness check',
      );
    } else {
      this.#episode.lastSkippedId = lastId;
    }
    try {
      // Best effort, so the rejected records do not come back on the next open; recovery cuts again.
      await this.#file.truncate(this.#end);
    } catch (error) {
      this.#note(`petstore: cutting ${this.#options.path} back to byte ${this.#end} also failed (${errorMessageOf(error)}); records of the failed batch may reappear if it is reopened before a recovery cuts them`);
    }
    for (const record of waiting) record.reject(failure.createError);
  }

  /**
   * One recovery attempt, once the failed run has settled: a write and a sync of a test block at the
   * acknowledged end (over whatever a failed write left there), then a cut back to that end, which
   * also drops any partial record beyond the test block.
   */
  async #attemptRecovery(): Promise<WriteFailure | undefined> {
    while (this.#running !== undefined) await this.#running;
    try {
      await this.#writeProbe();
      await this.#file.truncate(this.#end);
    } catch (error) {
      // Best effort, so a failed test write does not linger; the next attempt cuts first anyway.
      await this.#file.truncate(this.#end).catch(() => undefined);
      this.#failure = writeFailure(this.#options.path, error);
      return this.#failure;
    }
    this.#failure = undefined;
    return undefined;
  }

  /** Writes and syncs PROBE_SIZE filler bytes at the end; a crash before they are cut leaves a torn tail that opening cuts. */
  async #writeProbe(): Promise<void> {
    const probe = Buffer.alloc(PROBE_SIZE, PROBE_BYTE);
    let written = 0;
    while (written < probe.length) {
      const count = await this.#file.write(probe, written, probe.length - written, this.#end + written);
      if (count <= 0) throw new Error(`write(2) made no progress at byte ${this.#end + written}`);
      written += count;
    }
    await this.#file.datasync();
  }

  /** A record is durable again: the episode is over. */
  #endEpisode(): void {
    const episode = this.#episode as Episode;
    this.#episode = undefined;
    const skipped = episode.firstSkippedId === episode.lastSkippedId
      ? `id ${episode.firstSkippedId} given to the failed create stays`
      : `ids ${episode.firstSkippedId} to ${episode.lastSkippedId} given to the failed creates stay`;
    this.#note(`petstore: ${this.#options.path} accepts writes again: creates are stored again, without a restart. The ${skipped} unused.`);
  }

  /** Logs without letting a throwing log function leave waiting records unsettled. */
  #note(line: string): void {
    try {
      this.#options.log(line);
    } catch {
      // The failure itself still reaches every caller as their rejection.
    }
  }
}
