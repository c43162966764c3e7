import { constants, readSync, statSync, writeSync } from 'node:fs';
import { copyFile, link, open, readdir, readFile, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { lockDescriptor } from './descriptor-lock.js';
import type { DescriptorLock } from './descriptor-lock.js';

/** An open file as the file storage uses it: positional reads and writes, syncs, truncation. */
export interface StorageFile {
  /** Reads up to `length` bytes at `position` into `buffer` at `offset`; resolves with the count read. */
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<number>;
  /** Writes `length` bytes of `buffer` from `offset` at `position`; resolves with the count written (possibly fewer). */
  write(buffer: Uint8Array, offset: number, length: number, position: number): Promise<number>;
  /** fdatasync: the data and the size are on stable storage. */
  datasync(): Promise<void>;
  /** fsync: data and all metadata are on stable storage (also used on directories). */
  sync(): Promise<void>;
  /** Cuts the file to `length` bytes. */
  truncate(length: number): Promise<void>;
  /** The file's current size in bytes. */
  size(): Promise<number>;
  /** Which file this is: its device and inode numbers (fstat), as `<dev>:<ino>`. */
  identity(): Promise<string>;
  /** How many names (hard links) the file has (fstat); optional: a file system without it is taken to give each file one name. */
  linkCount?(): Promise<number>;
  /**
   * Takes an exclusive lock on this open file itself (flock(2) on its open file description), held
   * until it is closed, so every path to the same inode meets it. Optional: a file without it, or one
   * that answers `unsupported`, is kept single-writer by the lock file alone.
   */
  lock?(): Promise<DescriptorLock>;
  /** Closes the file. */
  close(): Promise<void>;
  /**
   * The synchronous forms of write and read, for the journal's writer, which checks and writes each
   * batch in a few microseconds with them rather than a round trip to the thread pool per call.
   * Optional: a file without them is used through the asynchronous calls.
   */
  now?: SynchronousFile;
}

/** An open file's synchronous calls (see StorageFile.now). */
export interface SynchronousFile {
  /** The file these calls belong to: a copy of it with other calls (`{ ...file, write }`) is used through its asynchronous calls, so what it replaced is never bypassed. */
  readonly of: StorageFile;
  /** Writes `length` bytes of `buffer` from `offset` at `position`; returns the count written (possibly fewer). */
  write(buffer: Uint8Array, offset: number, length: number, position: number): number;
  /** Reads up to `length` bytes at `position` into `buffer` at `offset`; returns the count read. */
  read(buffer: Uint8Array, offset: number, length: number, position: number): number;
}

/** The file-system calls of the file storage (typed without Node's Buffer, so consumers need no @types/node), injectable so tests can simulate full disks and I/O errors. */
export interface StorageFileSystem {
  /** Opens `path` with Node's string `flags` (`r`, `r+`, `w`, `wx`). */
  open(path: string, flags: string): Promise<StorageFile>;
  /** The whole content of a small file. */
  readFile(path: string): Promise<Uint8Array>;
  /** Creates a file that must not exist yet, with this content. */
  writeNewFile(path: string, data: string): Promise<void>;
  /** Creates a hard link `newPath` to `existingPath`; fails with EEXIST when `newPath` exists. */
  link(existingPath: string, newPath: string): Promise<void>;
  /** Atomically replaces `newPath` by `oldPath`. */
  rename(oldPath: string, newPath: string): Promise<void>;
  /** Removes a file. */
  unlink(path: string): Promise<void>;
  /** Copies a file to a path that must not exist yet. */
  copyNewFile(source: string, destination: string): Promise<void>;
  /** Which file `path` names now: its device and inode numbers (stat), as `<dev>:<ino>`; the same string as StorageFile.identity() for that file. */
  identity(path: string): Promise<string>;
  /** The synchronous form of `identity` with the file's size, for the journal's writer's checks of its lock and its journal (see StorageFile.now); optional. */
  now?: SynchronousFileSystem;
  /** `path` with every symbolic link in it resolved (realpath); fails with ENOENT when it names nothing. Optional: without it, paths are taken as they are. */
  realPath?(path: string): Promise<string>;
  /** The names in a directory (readdir). Optional: without it, no copy of a replaced journal beside it is looked for on open. */
  listDirectory?(path: string): Promise<string[]>;
}

/** A file system's synchronous calls (see StorageFileSystem.now). */
export interface SynchronousFileSystem {
  /** The file system these calls belong to: a copy of it with other calls is used through its asynchronous calls. */
  readonly of: StorageFileSystem;
  /** Which file `path` names now, as StorageFileSystem.identity, and its size in bytes: one stat. */
  status(path: string): { identity: string; size: number };
}

/** The synchronous calls of `file` when it has them and is the very file they belong to (not a copy with other calls); undefined otherwise. */
export function synchronousFile(file: StorageFile): SynchronousFile | undefined {
  return file.now?.of === file ? file.now : undefined;
}

/** The synchronous calls of `fileSystem` when it has them and is the very file system they belong to; undefined otherwise. */
export function synchronousFileSystem(fileSystem: StorageFileSystem): SynchronousFileSystem | undefined {
  return fileSystem.now?.of === fileSystem ? fileSystem.now : undefined;
}

/** Device and inode numbers as one string (bigint, since an inode number may exceed 2^53), and the size. */
function statusOf(stats: { dev: bigint; ino: bigint; size: bigint }): { identity: string; size: number } {
  return { identity: `${stats.dev}:${stats.ino}`, size: Number(stats.size) };
}

/** The real file system, through node:fs/promises. */
export const nodeFileSystem: StorageFileSystem = {
  async open(path, flags) {
    const handle = await open(path, flags);
    const file: StorageFile = {
      read: async (buffer, offset, length, position) => (await handle.read(buffer, offset, length, position)).bytesRead,
      write: async (buffer, offset, length, position) => (await handle.write(buffer, offset, length, position)).bytesWritten,
      datasync: () => handle.datasync(),
      sync: () => handle.sync(),
      truncate: (length) => handle.truncate(length),
      size: async () => (await handle.stat()).size,
      identity: async () => statusOf(await handle.stat({ bigint: true })).identity,
      linkCount: async () => (await handle.stat()).nlink,
      lock: () => lockDescriptor(handle.fd),
      close: () => handle.close(),
    };
    file.now = {
      of: file,
      write: (buffer, offset, length, position) => writeSync(handle.fd, buffer, offset, length, position),
      read: (buffer, offset, length, position) => readSync(handle.fd, buffer, offset, length, position),
    };
    return file;
  },
  readFile: (path) => readFile(path),
  writeNewFile: (path, data) => writeFile(path, data, { flag: 'wx' }),
  link: (existingPath, newPath) => link(existingPath, newPath),
  rename: (oldPath, newPath) => rename(oldPath, newPath),
  unlink: (path) => unlink(path),
  copyNewFile: (source, destination) => copyFile(source, destination, constants.COPYFILE_EXCL),
  identity: async (path) => statusOf(await stat(path, { bigint: true })).identity,
  realPath: (path) => realpath(path),
  listDirectory: (path) => readdir(path),
};
nodeFileSystem.now = { of: nodeFileSystem, status: (path) => statusOf(statSync(path, { bigint: true })) };

/** Syncs a directory, so a file created or renamed in it survives power loss. */
export async function syncDirectory(fileSystem: StorageFileSystem, directory: string): Promise<void> {
  const handle = await fileSystem.open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The errno code of a failed file-system call (`ENOENT`, `ENOSPC`, …), or undefined. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** The message of a thrown value (an Error's message, anything else as text), for messages and notes. */
export function errorMessageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
