import { PetstoreError } from '../../errors.js';
import type { Pet } from '../../pet.js';
import { describeError, errorCode } from './file-system.js';
import type { StorageFile } from './file-system.js';
import type { Durability, JournalStats } from './journal-types.js';


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

const WRITE_FAILED = 'Cannot create pet: the data file refused the write, so the pet was not stored. The storage accepts no more writes until it is reopened (the server restarted).';

/**
 * Appends records with group commit: the first record goes out at once; records that arrive while a
 * write and sync are in flight wait and go out together as the next batch, with one write and one
 * fdatasync. Every record is durable before its promise resolves. After any write error the writer
 * refuses all further records, because the file's end is then unknown.
 */
export class JournalWriter {
  readonly #file: StorageFile;
  readonly #options: JournalWriterOptions;
  #end: number;
  #queue: PendingRecord[] = [];
  #running: Promise<void> | undefined;
  #failure: PetstoreError | undefined;
  #isUnsynced = false;
  readonly #stats: JournalStats = { records: 0, writes: 0, syncs: 0 };

  constructor(file: StorageFile, end: number, options: JournalWriterOptions) {
    this.#file = file;
    this.#end = end;
    this.#options = options;
  }

  /** The error every record gets after a write failed, or undefined while writes work. */
  get failure(): PetstoreError | undefined {
    return this.#failure;
  }

  /** A copy of the counters. */
  stats(): JournalStats {
    return { ...this.#stats };
  }

  /** Queues a framed record; resolves with `pet` once the record is durable (per the durability mode). */
  append(frame: Buffer, pet: Pet): Promise<Pet> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    return new Promise<Pet>((resolve, reject) => {
      this.#queue.push({ frame, pet, resolve, reject });
      // Starting on the next turn of the event loop lets every request that arrived in this turn join the first batch.
      this.#running ??= new Promise<void>((started) => setImmediate(started)).then(() => this.#run());
    });
  }

  /** Resolves when every queued record has been written or rejected. */
  async drain(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
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

  /** Enters the failed state: logs the cause, cuts the unacknowledged bytes off, and rejects every waiting record. */
  async #fail(cause: unknown, batch: readonly PendingRecord[]): Promise<void> {
    this.#failure = new PetstoreError('unavailable', WRITE_FAILED, { cause });
    const code = errorCode(cause);
    this.#note(
      `petstore: writing ${this.#options.path} at byte ${this.#end} failed (${code ?? describeError(cause)}); `
      + 'the storage refuses writes until it is reopened',
    );
    try {
      // Best effort, so the rejected records do not come back on the next open.
      await this.#file.truncate(this.#end);
    } catch (error) {
      this.#note(`petstore: cutting ${this.#options.path} back to byte ${this.#end} also failed (${describeError(error)}); records of the failed batch may reappear when it is reopened`);
    }
    const waiting = [...batch, ...this.#queue];
    this.#queue = [];
    for (const record of waiting) record.reject(this.#failure);
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
