/** How far a write goes before `insert` resolves: `fsync` survives power loss, `write` survives a crash of the process only. */
export type Durability = 'fsync' | 'write';

/** Counters of the journal writer, for tests and benchmarks. */
export interface JournalStats {
  /** Records written and acknowledged. */
  records: number;
  /** Batches handed to write(2). */
  writes: number;
  /** fdatasync calls made for batches (group commit makes this smaller than `records` under load). */
  syncs: number;
}
