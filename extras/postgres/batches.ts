/** Options of createBatches. */
export interface BatchesOptions<Item, Result> {
  /** How many statements may run at once; an item that finds them all running waits for the next batch. */
  lanes: number;
  /** The most items one statement carries. */
  rows: number;
  /** Runs one item in a statement of its own. */
  alone(item: Item): Promise<Result>;
  /** Runs two or more items in one statement: each item's outcome, in the items' order. */
  together(items: readonly Item[]): Promise<PromiseSettledResult<Result>[]>;
  /** Items with the same key never share a statement; undefined: the item has no key. */
  keyOf(item: Item): string | undefined;
}

/** An item handed to Batches.run: its outcome, and a way to take it back while it still waits. */
export interface Queued<Result> {
  result: Promise<Result>;
  /** Takes the item out of the queue when it has not been sent yet; whether it was taken out. */
  withdraw(): boolean;
}

/** Runs items in statements, at most `lanes` at once, those that wait gathered into as few statements as they fit. */
export interface Batches<Item, Result> {
  run(item: Item): Queued<Result>;
}

interface Waiting<Item, Result> {
  item: Item;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/**
 * A queue that sends an item at once while a lane is free, as a lone statement, and otherwise holds
 * it until a statement ends; then every item that waited (up to `rows`) goes in the next statement.
 * Under light load nothing waits and nothing changes; under heavy load one statement, one commit and
 * one flush serve many items.
 */
export function createBatches<Item, Result>(options: BatchesOptions<Item, Result>): Batches<Item, Result> {
  const { lanes, rows, alone, together, keyOf } = options;
  let running = 0;
  let waiting: Waiting<Item, Result>[] = [];

  /** The next statement's items, in arrival order; items whose key is taken in it stay for a later one. */
  function nextBatch(): Waiting<Item, Result>[] {
    const batch: Waiting<Item, Result>[] = [];
    const left: Waiting<Item, Result>[] = [];
    const keys = new Set<string>();
    for (const entry of waiting) {
      const key = keyOf(entry.item);
      if (batch.length === rows || (key !== undefined && keys.has(key))) {
        left.push(entry);
        continue;
      }
      if (key !== undefined) keys.add(key);
      batch.push(entry);
    }
    waiting = left;
    return batch;
  }

  async function send(batch: readonly Waiting<Item, Result>[]): Promise<void> {
    running++;
    try {
      const [only] = batch;
      if (batch.length === 1 && only !== undefined) {
        await alone(only.item).then(only.resolve, only.reject);
        return;
      }
      const outcomes = await together(batch.map((entry) => entry.item)).catch((error: unknown) => batch.map((): PromiseRejectedResult => ({ status: 'rejected', reason: error })));
      batch.forEach((entry, index) => {
        const outcome = outcomes[index] ?? { status: 'rejected', reason: new Error('defect: a batch gave fewer outcomes than it had items') };
        if (outcome.status === 'fulfilled') entry.resolve(outcome.value);
        else entry.reject(outcome.reason);
      });
    } finally {
      running--;
      if (waiting.length > 0) void send(nextBatch());
    }
  }

  return {
    run(item) {
      let withdraw: () => boolean;
      const result = new Promise<Result>((resolve, reject) => {
        const entry: Waiting<Item, Result> = { item, resolve, reject };
        withdraw = () => {
          const index = waiting.indexOf(entry);
          if (index < 0) return false;
          waiting.splice(index, 1);
          return true;
        };
        if (running < lanes) void send([entry]);
        else waiting.push(entry);
      });
      return { result, withdraw: () => withdraw() };
    },
  };
}
