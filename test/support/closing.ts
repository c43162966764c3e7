/** Something a test starts and must stop: a server, a host app, a conformance target. */
export interface Closable {
  close(): Promise<void>;
}

/** Waits for `start`, gives what it started to `use`, and closes it whatever `use` does. */
export async function closingAfter<Started extends Closable, Result>(start: Promise<Started>, use: (started: Started) => Promise<Result>): Promise<Result> {
  const started = await start;
  try {
    return await use(started);
  } finally {
    await started.close();
  }
}
