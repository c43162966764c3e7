/** The signals the server acts on. */
export type CliSignal = 'SIGTERM' | 'SIGINT' | 'SIGHUP';

/** What the commands read and write: the process's streams, files and signals, handed over by the CLI entry (cli/main.ts). */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readText(path: string): Promise<string>;
  /** A file's permission bits (`stat().mode`). */
  fileMode(path: string): Promise<number>;
  writeText(path: string, text: string): Promise<void>;
  onSignal(signal: CliSignal, handler: () => void): void;
  /** Ends the process with this status once what was written is flushed. */
  exit(code: number): void;
  /** The version of this package. */
  version(): Promise<string>;
}
