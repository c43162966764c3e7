import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import type { NewPet, PetStatus } from '../../../lib/index.js';
import { nodeFileSystem } from '../../../extras/file-storage/file-system.js';
import type { StorageFile, StorageFileSystem } from '../../../extras/file-storage/file-system.js';

export { rejection } from '../../support/assertions.js';

/** A fresh directory under the system temp dir, removed when the test file ends. */
export async function temporaryDirectory(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'petstore-file-storage-'));
  after(() => rm(directory, { recursive: true, force: true }));
  return directory;
}

/** A fresh journal path in a fresh directory. */
export async function journalPath(): Promise<string> {
  return join(await temporaryDirectory(), 'pets.journal');
}

/** An error shaped like the ones node:fs rejects with. */
export function fsError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: simulated failure`), { code });
}

const STATUSES: readonly (PetStatus | undefined)[] = ['available', 'pending', 'sold', undefined];

/** A varied new pet for index `index`. */
export function samplePet(index: number): NewPet {
  const pet: NewPet = { name: `pet ${index} Zoë 🐕`, categoryId: index * 7 - 20 };
  const status = STATUSES[index % STATUSES.length];
  if (status !== undefined) pet.status = status;
  return pet;
}

/** Every operation a wrapped file system reports to its hook. */
export type Operation = 'open' | 'readFile' | 'writeNewFile' | 'link' | 'rename' | 'unlink' | 'copyNewFile' | 'stat'
  | 'read' | 'write' | 'datasync' | 'sync' | 'truncate' | 'size' | 'fstat' | 'close';

/** Called before each operation with the path it concerns (and the bytes of a write); throwing makes the operation fail. */
export type Hook = (operation: Operation, path: string, data?: Buffer) => void | Promise<void>;

/** The real file system with `hook` called before every operation. */
export function hookedFileSystem(hook: Hook, replaceWrite?: StorageFile['write']): StorageFileSystem {
  function wrap(file: StorageFile, path: string): StorageFile {
    return {
      read: async (...args) => (await hook('read', path), file.read(...args)),
      write: async (buffer, offset, length, position) => {
        await hook('write', path, Buffer.from(buffer.buffer, buffer.byteOffset + offset, length));
        return (replaceWrite ?? file.write)(buffer, offset, length, position);
      },
      datasync: async () => (await hook('datasync', path), file.datasync()),
      sync: async () => (await hook('sync', path), file.sync()),
      truncate: async (length) => (await hook('truncate', path), file.truncate(length)),
      size: async () => (await hook('size', path), file.size()),
      identity: async () => (await hook('fstat', path), file.identity()),
      close: async () => (await hook('close', path), file.close()),
    };
  }
  return {
    open: async (path, flags) => {
      await hook('open', path);
      return wrap(await nodeFileSystem.open(path, flags), path);
    },
    readFile: async (path) => (await hook('readFile', path), nodeFileSystem.readFile(path)),
    writeNewFile: async (path, data) => (await hook('writeNewFile', path), nodeFileSystem.writeNewFile(path, data)),
    link: async (from, to) => (await hook('link', to), nodeFileSystem.link(from, to)),
    rename: async (from, to) => (await hook('rename', to), nodeFileSystem.rename(from, to)),
    unlink: async (path) => (await hook('unlink', path), nodeFileSystem.unlink(path)),
    copyNewFile: async (from, to) => (await hook('copyNewFile', to), nodeFileSystem.copyNewFile(from, to)),
    identity: async (path) => (await hook('stat', path), nodeFileSystem.identity(path)),
  };
}

/** A journal's file system that fills up: writes stop with ENOSPC once `room` bytes are used, as on a full disk. */
export interface FullDisk {
  fileSystem: StorageFileSystem;
  /** Bytes the journal may still grow by; a write gets what fits (a short write), the next one ENOSPC. Infinity: space is free. */
  room: number;
  /** Whether truncating the journal fails too (EIO), so the bytes of a failed record stay in the file. */
  isCutFailing: boolean;
  /** The bytes of every write the storage asked for on the journal, in order. */
  writes: Buffer[];
}

/** The real file system, with the journal at `journal` on a disk that `room` makes full. */
export function fullDisk(journal: string): FullDisk {
  const base = hookedFileSystem((operation, path, data) => {
    if (path !== journal) return;
    if (operation === 'write' && data !== undefined) disk.writes.push(Buffer.from(data));
    if (operation === 'truncate' && disk.isCutFailing) throw fsError('EIO');
  });
  const disk: FullDisk = {
    room: Infinity,
    isCutFailing: false,
    writes: [],
    fileSystem: {
      ...base,
      async open(path, flags) {
        const file = await base.open(path, flags);
        if (path !== journal) return file;
        return {
          ...file,
          async write(buffer, offset, length, position) {
            if (disk.room <= 0) throw fsError('ENOSPC');
            const count = Math.min(length, disk.room);
            disk.room -= count;
            return file.write(buffer, offset, count, position);
          },
        };
      },
    },
  };
  return disk;
}

/** Collects log lines. */
export function logLines(): { lines: string[]; log: (line: string) => void } {
  const lines: string[] = [];
  return { lines, log: (line) => void lines.push(line) };
}

/** A RegExp matching `text` literally. */
export function literally(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}

/** The real file system where files cannot be locked themselves (no `flock`, not Linux): the lock file alone keeps writers apart. */
export function withoutFileLock(fileSystem: StorageFileSystem = nodeFileSystem): StorageFileSystem {
  return {
    ...fileSystem,
    async open(path, flags) {
      const file = await fileSystem.open(path, flags);
      return { ...file, lock: async () => ({ state: 'unsupported', reason: '' }) };
    },
  };
}
