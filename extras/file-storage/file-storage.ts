import { basename, dirname, join, resolve } from 'node:path';
import { freezePet, KeyIndex, MAX_SAFE_ID, PetIndex, PetstoreError } from '../../lib/index.js';
import type { Capacity, IdempotencyRecord, InsertOnceResult, NewPet, Pet, PetStorage, StorageUsage } from '../../lib/index.js';
import { errorMessageOf, errorCode, nodeFileSystem, syncDirectory } from './file-system.js';
import type { StorageFile, StorageFileSystem } from './file-system.js';
import { appendWithin, capacityRefusal, refuseOversizedJournal, heldUsage } from './journal-capacity.js';
import type { Replay } from './journal-capacity.js';
import {
  encodeHeader, encodeKeyedPetRecord, encodePetRecord, FORMAT_VERSION, HEADER_SIZE, headerProblem, headerVersion, keyedPetRecordProblem, petRecordProblem,
} from './journal-format.js';
import { cutDamagedTail } from './damaged-tail.js';
import { scanJournal } from './journal-scan.js';
import type { ScanResult } from './journal-scan.js';
import { JournalWriter } from './journal-writer.js';
import { JournalWatch, refuseOrphans } from './journal-identity.js';
import type { DescriptorLock } from './descriptor-lock.js';
import type { Durability, JournalStats } from './journal-types.js';
import { acquireLock } from './lock-file.js';
import type { HeldLock } from './lock-file.js';

/** Options of createFileStorage. */
export interface FileStorageOptions {
  /** `fsync` (default): an insert resolves after fdatasync, so it survives power loss. `write`: after write(2), so it survives a crash of the process only. */
  durability?: Durability;
  /** Receives operational notes (a torn tail cut off, a stale lock taken over, a failed write); default: process.emitWarning. */
  log?: (line: string) => void;
  /** The file-system calls to use; default: node:fs. Tests inject failures here. */
  fileSystem?: StorageFileSystem;
  /**
   * The most the replay may load: a journal whose pets pass it is refused with `insufficient_storage`
   * (at once when its size alone shows it, else as soon as the pets read pass it), before the heap runs out.
   */
  capacity?: Capacity;
}

/** A PetStorage kept in an append-only journal file, with its counters. */
export interface FileStorage extends PetStorage {
  /** Absolute path of the journal. */
  readonly path: string;
  /** Counters of records, writes and syncs since open: `syncs / records` is the syncs per create. */
  stats(): JournalStats;
  /** Pets held in memory and the heap bytes of them and their idempotency keys (petHeapBytes, keyHeapBytes). */
  usage(): StorageUsage;
  /** Resolves when the lock is still held and writes work, trying to recover from a failed write first; rejects with `unavailable` naming the file and the cause. */
  checkReady(): Promise<void>;
  /** Waits for queued inserts, syncs the journal, closes it and releases the lock. */
  close(): Promise<void>;
}

/** The suffix of the single-writer lock file next to the journal. */
export const LOCK_SUFFIX = '.lock';

/** What to do when opening the data file itself fails, by the errno. */
const OPEN_ADVICE: Readonly<Record<string, string>> = {
  EACCES: 'the server reads and appends to the file, so give this user read and write permission on it',
  EPERM: 'the server reads and appends to the file, so give this user read and write permission on it',
  EROFS: 'the server appends to the file, so keep it on a writable file system',
};

function openError(path: string, doing: string, cause: unknown): PetstoreError {
  const code = errorCode(cause);
  // Node's EISDIR text ("illegal operation on a directory") says nothing an operator can act on.
  const detail = code === 'EISDIR'
    ? `it names a directory; give the path of a file instead (such as ${join(path, 'pets.journal')})`
    : `${doing} failed: ${errorMessageOf(cause)}${code !== undefined && doing === 'opening it' && OPEN_ADVICE[code] !== undefined ? `; ${OPEN_ADVICE[code]}` : ''}`;
  return new PetstoreError('unavailable', `Cannot open data file ${path}: ${detail}`, { cause });
}

/**
 * Creates an empty journal at `path` atomically: the header goes to a side file, which is synced and
 * renamed into place, and then the directory is synced, so a crash never leaves a half-written header.
 */
async function createJournal(fileSystem: StorageFileSystem, path: string): Promise<void> {
  const draft = `${path}.creating`;
  const file = await fileSystem.open(draft, 'w');
  try {
    await writeHeader(file);
  } finally {
    await file.close();
  }
  await fileSystem.rename(draft, path);
  await syncDirectory(fileSystem, dirname(path));
}

async function writeHeader(file: StorageFile): Promise<void> {
  const header = encodeHeader();
  if ((await file.write(header, 0, header.length, 0)) !== header.length) throw new Error('short write of the journal header');
  await file.datasync();
}

/**
 * The journal's path with every symbolic link resolved: of the file, or of its directory while the
 * file does not exist yet. The lock is named from it, so every path that reaches the journal through
 * a symbolic link (to the file or to a directory) finds the same lock; a second name made with a hard
 * link is refused on open (openJournal), since no name of the file can be told from another.
 */
export async function journalPathOf(fileSystem: StorageFileSystem, path: string): Promise<string> {
  const absolute = resolve(path);
  const { realPath } = fileSystem;
  if (realPath === undefined) return absolute;
  try {
    return await realPath.call(fileSystem, absolute);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw openError(absolute, 'resolving its symbolic links', error);
  }
  try {
    return join(await realPath.call(fileSystem, dirname(absolute)), basename(absolute));
  } catch {
    // A directory that does not exist: the lock's creation says so.
    return absolute;
  }
}

/**
 * Opens the journal for reading and appending, creating it when missing and writing the header into
 * an empty file, and locks the open file itself where the file system can (`lock`: what that said);
 * `version` is its format version.
 */
export async function openJournal(
  fileSystem: StorageFileSystem, path: string, mayCreate: boolean,
): Promise<{ file: StorageFile; size: number; version: number; lock: DescriptorLock | undefined }> {
  let file: StorageFile;
  try {
    file = await fileSystem.open(path, 'r+');
  } catch (error) {
    if (errorCode(error) !== 'ENOENT' || !mayCreate) throw openError(path, 'opening it', error);
    try {
      await createJournal(fileSystem, path);
      file = await fileSystem.open(path, 'r+');
    } catch (createError) {
      throw openError(path, 'creating it', createError);
    }
  }
  try {
    // A server opened under another name would take another lock and write the same file.
    const links = await file.linkCount?.();
    if (links !== undefined && links > 1) {
      throw new PetstoreError('unavailable', `Cannot open data file ${path}: it has ${links} names (hard links), `
        + 'so a server started on another of them would take another lock and write the same file. '
        + `Remove the other names (\`find / -xdev -samefile ${path}\` lists them); to keep a copy, copy the file instead of linking it.`);
    }
    // Another open of the file holds its own lock: a server on another path to the same file.
    const lock = await file.lock?.();
    if (lock?.state === 'busy') {
      throw new PetstoreError('unavailable', `Data file ${path} is in use: another process holds the file itself open and locked, `
        + 'through this path or another path to the same file (a bind mount of the file, as Docker file mounts and Kubernetes subPath make; '
        + `the file moved or linked elsewhere). Only one writer may open it; stop the other one first (\`fuser -v ${path}\` names it).`);
    }
    let size = await file.size();
    // An empty file (made by `touch` or `mktemp`) holds nothing to lose: it becomes an empty journal.
    if (size === 0 && mayCreate) {
      await writeHeader(file);
      size = HEADER_SIZE;
    }
    const header = Buffer.alloc(Math.min(size, HEADER_SIZE));
    if ((await file.read(header, 0, header.length, 0)) !== header.length) throw new Error('short read of the journal header');
    const problem = headerProblem(header);
    if (problem !== undefined) throw new PetstoreError('unavailable', `Cannot open data file ${path}: ${problem} (byte offset 0)`);
    return { file, size, version: headerVersion(header), lock };
  } catch (error) {
    await file.close().catch(() => undefined);
    throw error instanceof PetstoreError ? error : openError(path, 'reading its header', error);
  }
}

/** The refusal for damage that is not a torn tail: dropping it would drop acknowledged pets. */
function corruptionError(path: string, damage: NonNullable<ScanResult['damage']>): PetstoreError {
  const why = damage.nextIntact === undefined
    ? 'the record\'s checksum holds, so this is not a torn write'
    : `an intact record follows at byte offset ${damage.nextIntact}, so this is not a torn final write`;
  return new PetstoreError(
    'unavailable',
    `Data file ${path} is corrupt at byte offset ${damage.offset}: ${damage.reason}; ${why}. `
    + 'Refusing to open it rather than dropping acknowledged pets. '
    + `With the server stopped, \`petstore-reference repair --data ${path} --salvage\` copies it aside, then keeps every intact record and drops only the damaged bytes (into a side file); `
    + `without \`--salvage\`, repair cuts it at byte offset ${damage.offset} and drops every record after that too.`,
  );
}

/**
 * Opens (creating if needed) the journal at `path` as a PetStorage: takes the single-writer lock,
 * replays every record into memory, cuts off a torn final record, and appends from there.
 */
export async function createFileStorage(path: string, options: FileStorageOptions = {}): Promise<FileStorage> {
  const durability = options.durability ?? 'fsync';
  // By default a process warning, which Node prints to stderr; the library never writes to stdout.
  const log = options.log ?? ((line: string) => process.emitWarning(line, { code: 'PETSTORE_FILE_STORAGE' }));
  const fileSystem = options.fileSystem ?? nodeFileSystem;
  if (durability !== 'fsync' && durability !== 'write') {
    throw new PetstoreError('internal_error', `createFileStorage: \`durability\` must be \`fsync\` or \`write\`, not ${JSON.stringify(durability)}`);
  }
  const journalPath = await journalPathOf(fileSystem, path);
  const lock = await acquireLock(`${journalPath}${LOCK_SUFFIX}`, journalPath, fileSystem, log);
  let file: StorageFile | undefined;
  try {
    await refuseOrphans(fileSystem, journalPath);
    const opened = await openJournal(fileSystem, journalPath, true);
    file = opened.file;
    if (opened.lock?.state === 'unsupported' && opened.lock.reason !== '') {
      log(`petstore: cannot lock data file ${journalPath} itself (${opened.lock.reason}); its lock file alone keeps a second server off it`);
    }
    const identity = await file.identity();
    refuseOversizedJournal(journalPath, opened.size, opened.version, options.capacity);
    const replay: Replay = { index: new PetIndex(), keys: new KeyIndex(), read: HEADER_SIZE };
    let scan: ScanResult;
    try {
      scan = await scanJournal(file, opened.size, appendWithin(replay, options.capacity));
    } catch (error) {
      throw capacityRefusal(error, journalPath, opened.size, replay, options.capacity) ?? openError(journalPath, 'reading it', error);
    }
    if (scan.damage !== undefined) {
      if (!scan.damage.isTornTail) throw corruptionError(journalPath, scan.damage);
      const { reason } = scan.damage;
      scan = { ...scan, ...await cutDamagedTail(file, { ...scan, fileSystem, path: journalPath, size: opened.size, reason, log }) };
    }
    const watch = new JournalWatch(journalPath, file, { fileSystem, identity });
    return fileStorage({ path: journalPath, file, lock, watch }, { ...replay, scan, version: opened.version }, { durability, log });
  } catch (error) {
    await file?.close().catch(() => undefined);
    await lock.release().catch(() => undefined);
    throw error;
  }
}

/** What opening the journal found: the pets, the idempotency keys of keyed records, and where appending starts. */
interface Replayed extends Replay {
  scan: ScanResult;
  version: number;
}

/** Refuses work once close() has begun. */
function refuseIfClosed(closing: Promise<void> | undefined, doing: string): void {
  if (closing !== undefined) throw new PetstoreError('unavailable', `${doing}: the storage is closed`);
}

/** What a storage holds open: the journal, its lock file and the watch on its path. */
interface Held {
  path: string;
  file: StorageFile;
  lock: HeldLock;
  watch: JournalWatch;
}

/**
 * Waits for queued inserts and a recovery under way, keeps the journal's content beside it if its
 * path was made to name another file, syncs what `write` mode left unsynced, closes the journal and
 * releases the lock.
 */
async function closeJournal({ path, file, lock, watch }: Held, writer: JournalWriter): Promise<void> {
  try {
    await writer.drain();
    const replaced = await watch.problem();
    if (replaced !== undefined) writer.displace(replaced);
    await writer.syncIfNeeded();
  } catch (error) {
    throw new PetstoreError('unavailable', `Closing data file ${path}: the final sync failed: ${errorMessageOf(error)}`, { cause: error });
  } finally {
    await file.close().catch(() => undefined);
    await lock.release();
  }
}

/** A journal open for serving: what its operations share, the id allocator and the shutdown among it. */
interface OpenJournal extends Held {
  readonly writer: JournalWriter;
  readonly replayed: Replayed;
  /** Creates with an idempotency key whose record is not yet durable: a second create with the key waits for the first. */
  readonly pending: Map<string, Promise<InsertOnceResult>>;
  nextId: number;
  closing: Promise<void> | undefined;
  /** Whether the journal's header allows keyed records (format version 2), and the raise under way. */
  isRaised: boolean;
  raising: Promise<void> | undefined;
}

/**
 * Raises a version 1 journal's header to FORMAT_VERSION, synced, before its first keyed record: one
 * 16-byte write inside the first disk sector, which a crash leaves whole or old (and a torn header
 * fails its checksum rather than being misread). Once, shared by concurrent creates; a failed attempt
 * is tried again by the next create.
 */
function raiseOnce(journal: OpenJournal): Promise<void> {
  journal.raising ??= writeHeader(journal.file).then(
    () => {
      journal.isRaised = true;
    },
    (error: unknown) => {
      journal.raising = undefined;
      const message = `Cannot create pet: raising data file ${journal.path} to format version ${FORMAT_VERSION} failed: ${errorMessageOf(error)}`;
      throw new PetstoreError('unavailable', message, { cause: error });
    },
  );
  return journal.raising;
}

/** insert, and insertOnce's new record (with `idempotency`): a new pet's record, acknowledged once durable. */
async function insert(journal: OpenJournal, pet: NewPet, idempotency?: IdempotencyRecord): Promise<Pet> {
  refuseIfClosed(journal.closing, 'Cannot create pet');
  if (journal.writer.failure !== undefined) {
    // After a failed write, the journal is made writable again before a create, or the create is refused with why not.
    const failure = await journal.writer.recover();
    if (failure !== undefined) throw failure.createError;
    refuseIfClosed(journal.closing, 'Cannot create pet');
  }
  if (idempotency !== undefined && !journal.isRaised) {
    await raiseOnce(journal);
    refuseIfClosed(journal.closing, 'Cannot create pet');
  }
  const problem = petRecordProblem(pet) ?? (idempotency === undefined ? undefined : keyedPetRecordProblem(pet, idempotency));
  if (problem !== undefined) throw new PetstoreError('validation_failed', `Cannot create pet: ${problem}`);
  if (journal.nextId > MAX_SAFE_ID) throw new PetstoreError('unavailable', 'Cannot create pet: every id up to 2^53 - 1 has been used');
  const stored = freezePet(journal.nextId++, pet);
  return journal.writer.append(idempotency === undefined ? encodePetRecord(stored) : encodeKeyedPetRecord(stored, idempotency), stored);
}

/** Appends the keyed record of a new pet; the key is remembered once the record is durable. */
async function appendKeyed(journal: OpenJournal, pet: NewPet, idempotency: IdempotencyRecord): Promise<InsertOnceResult> {
  const committed = await insert(journal, pet, idempotency);
  journal.replayed.keys.add(committed, idempotency);
  return { pet: committed, fingerprint: idempotency.fingerprint, isReplay: false };
}

/** insertOnce: the remembered pet of a known key, the outcome of a create of the key in flight, or a new keyed record. */
async function insertOnce(journal: OpenJournal, pet: NewPet, idempotency: IdempotencyRecord): Promise<InsertOnceResult> {
  const known = journal.replayed.keys.get(idempotency.key);
  if (known !== undefined) return { pet: known.pet, fingerprint: known.fingerprint, isReplay: true };
  const inFlight = journal.pending.get(idempotency.key);
  if (inFlight !== undefined) {
    // When the first create fails, its key stays free and this one tries on its own.
    const first = await inFlight.catch(() => undefined);
    return first === undefined ? insertOnce(journal, pet, idempotency) : { ...first, isReplay: true };
  }
  const created = appendKeyed(journal, pet, idempotency).finally(() => journal.pending.delete(idempotency.key));
  journal.pending.set(idempotency.key, created);
  return created;
}

/** checkReady: not closing, the lock still this process's, and a failed write recovered from. */
async function checkReady(journal: OpenJournal): Promise<void> {
  const notReady = `Data file ${journal.path} is not ready`;
  refuseIfClosed(journal.closing, notReady);
  // A lock found gone here refuses creates too: the writer stays displaced until a restart.
  const displacement = await journal.writer.checkOwnership();
  if (displacement !== undefined) throw displacement.readinessError;
  refuseIfClosed(journal.closing, notReady);
  // After a failed write this is a recovery attempt, so a freed disk makes the storage ready again without waiting for a create.
  const failure = await journal.writer.recover();
  if (failure !== undefined) throw failure.readinessError;
}

function fileStorage(held: Held, replayed: Replayed, options: { durability: Durability; log: (line: string) => void }): FileStorage {
  const { path, file, lock, watch } = held;
  const { index, scan } = replayed;
  const writer = new JournalWriter(file, scan.end, {
    path, ...options, onCommit: (pet) => index.append(pet), ownedSizeNow: () => (lock.isHeldNow() ? watch.sizeNow() : undefined),
    // The journal's ownership: its path still names the held file, and the lock file is still this process's.
    ownership: async () => {
      const [replaced, lockProblem] = await Promise.all([watch.problem(), lock.problem()]);
      return replaced ?? lockProblem;
    },
  });
  const journal: OpenJournal = {
    ...held, writer, replayed, pending: new Map(), nextId: scan.highestId + 1, closing: undefined,
    isRaised: replayed.version >= FORMAT_VERSION, raising: undefined,
  };
  return {
    path,
    insert: (pet) => insert(journal, pet),
    insertOnce: (pet, idempotency) => insertOnce(journal, pet, idempotency),
    get: async (id) => index.get(id),
    list: async (query) => index.list(query),
    usage: () => heldUsage(index, replayed.keys),
    checkReady: () => checkReady(journal),
    stats: () => writer.stats(),
    close: () => (journal.closing ??= closeJournal(held, writer)),
  };
}
