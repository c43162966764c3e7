import { reasonOf } from './reasons.js';

/** Where the server was asked to listen, for the message. */
export interface ListenTarget {
  host: string;
  port: number;
}

/** What to do about each way listening fails that an operator can fix, by the system error's code. */
const ADVICE: Readonly<Record<string, (target: ListenTarget) => string>> = {
  EADDRINUSE: ({ port }) => `port ${port} is in use by another process: choose another --port (or PORT), 0 for any free one, or stop the other process`,
  EACCES: ({ port }) => `permission to use port ${port} is denied (ports below 1024 need privileges): choose a --port (or PORT) of 1024 or more`,
  EADDRNOTAVAIL: ({ host }) => `${host} is not an address of this machine: choose a --host (or HOST) it has, such as 127.0.0.1, or 0.0.0.0 for every interface`,
  ENOTFOUND: ({ host }) => `${host} is not a host name this machine can resolve: choose a --host (or HOST) such as 127.0.0.1, or 0.0.0.0 for every interface`,
};

/**
 * The one line that says why the server could not listen and what to do, for a failure the
 * operator can fix (a port in use or refused, an address not on this host); undefined for anything else.
 */
export function listenProblem(error: unknown, target: ListenTarget): string | undefined {
  const advice = ADVICE[reasonOf(error)];
  return advice === undefined ? undefined : `cannot listen on ${target.host}:${target.port}: ${advice(target)}`;
}
