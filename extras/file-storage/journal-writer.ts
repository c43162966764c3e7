import { PetstoreError } from '../../lib/index.js';
import type { Pet } from '../../lib/index.js';
import { errorMessageOf, errorCode, synchronousFile } from './file-system.js';
import type { StorageFile } from './file-system.js';
import { Appender } from './damaged-tail.js';
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
  /**
   * Why this process can no longer prove that it alone writes the journal (its lock was removed or
   * taken), or undefined while it can. Asked before each batch is written and again before it is
   * acknowledged.
   */
  ownership: () => Promise<OwnershipProblem | string | undefined>;
  /** The same check made synchronously: the journal's size when the lock and the journal's path are provably this process's now; undefined sends the writer to `ownership`. Optional. */
  ownedSizeNow?: () => number | undefined;
  log: (line: string) => void;
}

/** Why the journal is no longer this writer's alone, for the operator (`reason`) and for clients (`createMessage`, which names no server path). A bare string is a lost lock. */
export interface OwnershipProblem {
  reason: string;
  createMessage: string;
}

/** What a create answers when the single-writer lock was lost. */
const LOCK_LOST_MESSAGE = 'Cannot create pet: this server can no longer prove that it alone writes its data file (its single-writer lock was removed or taken by another process), '
  + 'so the pet was not stored. Creates stay refused until the server is restarted with no other server on the data file.';

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
  #displacement: WriteFailure | undefined;
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

  /** Asks whether the lock is still this process's; once it is not, every later create is refused, since only a restart can take the lock again. */
  async checkOwnership(): Promise<WriteFailure | undefined> {
    if (this.#displacement !== undefined) return this.#displacement;
    // The lock only: the file's size is checked by the writer itself, between its own writes.
    const problem = await this.#options.ownership();
    return problem === undefined ? this.#displacement : this.displace(problem);
  }

  /** A copy of the counters. */
  stats(): JournalStats {
    return { ...this.#stats };
  }

  /** Queues a framed record; resolves with `pet` once the record is durable (per the durability mode). */
  append(frame: Buffer, pet: Pet): Promise<Pet> {
    const refusal = this.#displacement ?? this.#failure;
    if (refusal !== undefined) return Promise.reject(refusal.createError);
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
    if (this.#displacement !== undefined) return Promise.resolve(this.#displacement);
    if (this.#failure === undefined) return Promise.resolve(undefined);
    this.#recovering ??= this.#attemptRecovery().finally(() => {
      this.#recovering = undefined;
    });
    return this.#recovering;
  }

  /** Flushes what `write` mode left in the page cache: called on close. */
  async syncIfNeeded(): Promise<void> {
    if (!this.#isUnsynced || this.#failure !== undefined || this.#displacement !== undefined) return;
    await this.#file.datasync();
    this.#isUnsynced = false;
  }

  async #run(): Promise<void> {
    // Whether the last check passed with no I/O of this writer after it, so it vouches for the next write as a check just before it would.
    let isVerified = false;
    while (this.#queue.length > 0) {
      const batch = this.#queue;
      this.#queue = [];
      let problem: OwnershipProblem | string | undefined;
      try {
        problem = await this.#writeBatch(batch, isVerified);
      } catch (error) {
        await this.#fail(error, batch);
        break;
      }
      if (problem !== undefined) {
        // The batch and everything queued behind it.
        const waiting = [...batch, ...this.#queue];
        this.#queue = [];
        for (const record of waiting) record.reject(this.displace(problem).createError);
        break;
      }
      for (const record of batch) {
        this.#options.onCommit(record.pet);
        record.resolve(record.pet);
      }
      if (this.#episode !== undefined) this.#endEpisode();
      // In `fsync` mode the check after the write ran beside the sync, so the sync came after it.
      isVerified = this.#options.durability === 'write';
    }
    this.#running = undefined;
  }

  /**
   * Writes and syncs a batch; resolves with why it must not be acknowledged (the lock is no longer
   * provably ours), or undefined. Ownership is checked before the write, so a displaced writer does
   * not overwrite what the new owner appended, and again after the write, so an acknowledged record
   * was written while no other process held the lock: any later owner reads it when it opens. The
   * check before is skipped when `isVerified`: the previous batch's check came after its last I/O.
   */
  async #writeBatch(batch: readonly PendingRecord[], isVerified: boolean): Promise<OwnershipProblem | string | undefined> {
    const before = isVerified ? undefined : await this.#ownershipProblem(this.#end);
    if (before !== undefined) return before;
    const data = batch.length === 1 ? (batch[0] as PendingRecord).frame : Buffer.concat(batch.map((record) => record.frame));
    // Synchronously where the file allows: a write to the page cache takes microseconds, a round trip to the thread pool tens of them.
    const now = synchronousFile(this.#file);
    let written = 0;
    while (written < data.length) {
      const count = now === undefined
        ? await this.#file.write(data, written, data.length - written, this.#end + written)
        : now.write(data, written, data.length - written, this.#end + written);
      if (count <= 0) throw new Error(`write(2) made no progress at byte ${this.#end + written}`);
      written += count;
    }
    this.#stats.writes++;
    const sync = this.#options.durability === 'fsync' ? this.#file.datasync() : undefined;
    const [after] = await Promise.all([this.#ownershipProblem(this.#end + data.length), sync]);
    if (sync === undefined) this.#isUnsynced = true;
    else this.#stats.syncs++;
    this.#end += data.length;
    if (after !== undefined) return after;
    this.#stats.records += batch.length;
    return undefined;
  }

  /** Why the journal may no longer be this writer's alone: the lock, or a size that is not where this writer left it (another process appended or cut). */
  async #ownershipProblem(end: number): Promise<OwnershipProblem | string | undefined> {
    // The same two checks with synchronous calls where the lock and the file system have them (three calls, a few microseconds); any doubt goes the asynchronous way, which says why.
    const sizeNow = this.#options.ownedSizeNow?.();
    if (sizeNow !== undefined) return this.#sizeProblem(sizeNow, end);
    const [problem, size] = await Promise.all([this.#options.ownership(), this.#file.size()]);
    return problem ?? this.#sizeProblem(size, end);
  }

  /** Why a journal of `size` bytes is not this writer's alone when it wrote it up to `end`, or undefined when the two agree. */
  #sizeProblem(size: number, end: number): string | undefined {
    if (size === end) return undefined;
    return `Data file ${this.#options.path} is ${size} bytes long, but this server wrote it up to byte ${end}: another process has written to it or cut it. `
      + 'Stop every other server on this data file, then restart this one.';
  }

  /** Enters the displaced state for good (logging why, once) and returns it: creates answer 503 from now on. Also called on close. */
  displace(problem: OwnershipProblem | string): WriteFailure {
    if (this.#displacement !== undefined) return this.#displacement;
    const { reason, createMessage } = typeof problem === 'string' ? { reason: problem, createMessage: LOCK_LOST_MESSAGE } : problem;
    const displacement: WriteFailure = {
      createError: new PetstoreError('unavailable', createMessage),
      readinessError: new PetstoreError('unavailable', reason),
    };
    this.#displacement = displacement;
    this.#note(`petstore: ${reason} Creates answer 503 from now on; reads still answer.`);
    return displacement;
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
      // PROBE_SIZE filler bytes at the end, synced; a crash before they are cut leaves a torn tail that opening cuts.
      const probe = new Appender(this.#file);
      probe.size = this.#end;
      await probe.append(Buffer.alloc(PROBE_SIZE, PROBE_BYTE));
      await this.#file.datasync();
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
