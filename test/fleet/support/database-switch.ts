import { createConnection, createServer } from 'node:net';
import type { Socket } from 'node:net';
import { after } from 'node:test';

/** A TCP proxy on 127.0.0.1 in front of a database, which a test turns off and on: an outage of the shared database as every server sees it. */
export interface DatabaseSwitch {
  /** Its port on 127.0.0.1, to put in the servers' connection URL. */
  port: number;
  /** Cuts every open connection and refuses new ones (each is closed as soon as it is accepted). */
  turnOff(): void;
  /** Forwards new connections again. */
  turnOn(): void;
  /** Stops listening and cuts every connection; safe to call twice. */
  close(): Promise<void>;
}

/** Starts a switch in front of the database listening on `targetPort` of 127.0.0.1; it is closed after the file's tests. */
export async function startDatabaseSwitch(targetPort: number): Promise<DatabaseSwitch> {
  const sockets = new Set<Socket>();
  let isOn = true;
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => sockets.delete(socket));
  };
  const server = createServer((client) => {
    track(client);
    if (!isOn) return void client.destroy();
    const database = createConnection({ host: '127.0.0.1', port: targetPort });
    track(database);
    client.pipe(database).pipe(client);
    client.once('close', () => database.destroy());
    database.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the switch has no port');
  let closed: Promise<void> | undefined;
  const cutAll = (): void => {
    for (const socket of sockets) socket.destroy();
  };
  const databaseSwitch: DatabaseSwitch = {
    port: address.port,
    turnOff() {
      isOn = false;
      cutAll();
    },
    turnOn() {
      isOn = true;
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        cutAll();
      });
      return closed;
    },
  };
  after(() => databaseSwitch.close());
  return databaseSwitch;
}
