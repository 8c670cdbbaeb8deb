// A loopback TCP proxy in front of a database server that can cut a client's connection after the
// server has answered a chosen request, before the answer reaches the client: the write landed,
// the client never heard. What a dropped network link or a failover does to a store's client.
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

export interface DropProxy {
  /** host:port of the proxy. */
  readonly host: string;
  readonly port: number;
  /** Cuts the connection that next sends a request containing `marker`, once the server answers it. */
  dropReplyTo(marker: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts a proxy to `target` on a free loopback port. */
export async function startDropProxy(target: { host: string; port: number }): Promise<DropProxy> {
  let armed: { marker: string; dropped: () => void } | undefined;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    let cutOnReply: (() => void) | undefined;
    client.on('data', (chunk) => {
      if (armed && chunk.toString('latin1').includes(armed.marker)) {
        const { dropped } = armed;
        armed = undefined;
        cutOnReply = () => {
          client.destroy();
          upstream.destroy();
          dropped();
        };
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (cutOnReply) return cutOnReply();
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    dropReplyTo: (marker) => new Promise<void>((resolve) => (armed = { marker, dropped: resolve })),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
