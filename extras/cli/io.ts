/** The signals the server acts on. */
export type CliSignal = 'SIGTERM' | 'SIGINT' | 'SIGHUP';

/** The two streams a command writes to. */
export type CliStream = 'stdout' | 'stderr';

/** What the commands read and write: the process's streams, files and signals, handed over by the CLI entry (extras/cli/main.ts). */
export interface CliIo {
  /** Writes to stdout; never throws, and drops what a reader that went away or stalled cannot take. */
  stdout(text: string): void;
  /** Writes to stderr, as `stdout` does. */
  stderr(text: string): void;
  /** Calls `listener` for every line dropped from now on, on either stream. */
  onDroppedLine(listener: (stream: CliStream) => void): void;
  readText(path: string): Promise<string>;
  /** A file's permission bits (`stat().mode`). */
  fileMode(path: string): Promise<number>;
  writeText(path: string, text: string): Promise<void>;
  onSignal(signal: CliSignal, handler: () => void): void;
  /** Ends the process with this status once what was written is flushed, or a reader that does not take it has had its time. */
  exit(code: number): void;
  /** The version of this package. */
  version(): Promise<string>;
  /** Where this package's guides are: the `docs` folder of the installed package or the clone. */
  docsDirectory(): Promise<string>;
  /** The `--max-old-space-size` node was started with (MiB), on its command line or in `NODE_OPTIONS`; undefined when none. */
  maxOldSpaceMiB?: number;
}
