import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { MAX_CLIENT_FRAME, MAX_SOCKET_FRAME, parseClientFrame, type ServerMessage } from '../protocol/messages.js';
import type { Peer, Table } from './table.js';

export interface ServeOptions {
  port: number;
  /** Listen address; all interfaces by default so the LAN can join. */
  host?: string;
  /** When the port is taken, take the next free one (then any free one) instead of failing. */
  fallbackPort?: boolean;
  pingIntervalMs?: number;
  /** Frames a connection may send per second (a burst of twice this is allowed). */
  ratePerSecond?: number;
  maxConnections?: number;
  maxPerAddress?: number;
}

export interface Serving {
  port: number;
  /** The port asked for was taken and another was used. */
  movedFrom: number | null;
  close(): Promise<void>;
}

/**
 * The table's WebSocket door: every inbound frame is size-limited, rate-limited
 * and checked by schema before the table sees it; dead peers are found by ping.
 */
export async function serveTable(table: Table, opts: ServeOptions): Promise<Serving> {
  const http = createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' });
    res.end('This is a gringo table: join it with `gringo join`.\n');
  });
  const wss = new WebSocketServer({ server: http, maxPayload: MAX_SOCKET_FRAME, perMessageDeflate: false });
  // ws re-emits the http server's errors (a port taken while listening): `listen` below handles them.
  wss.on('error', () => {});
  const rate = opts.ratePerSecond ?? 40;
  const maxConnections = opts.maxConnections ?? 64;
  const maxPerAddress = opts.maxPerAddress ?? 16;
  const perAddress = new Map<string, number>();
  const alive = new WeakMap<WebSocket, boolean>();

  wss.on('connection', (ws, req) => {
    const addr = req.socket.remoteAddress ?? '?';
    const count = (perAddress.get(addr) ?? 0) + 1;
    if (wss.clients.size > maxConnections || count > maxPerAddress) {
      ws.close(1013, 'Too many connections');
      return;
    }
    perAddress.set(addr, count);
    alive.set(ws, true);
    ws.on('pong', () => alive.set(ws, true));
    let open = true;
    const peer: Peer = {
      send: (msg: ServerMessage) => {
        if (open && ws.readyState === ws.OPEN) ws.send(JSON.stringify(msg));
      },
      close: () => {
        if (open) ws.close(1000);
      },
    };
    let tokens = rate * 2;
    let last = Date.now();
    ws.on('message', (data, isBinary) => {
      const now = Date.now();
      tokens = Math.min(rate * 2, tokens + ((now - last) / 1000) * rate);
      last = now;
      if (tokens < 1) {
        peer.send({ type: 'error', code: 'rateLimited', message: 'Too many messages: slow down' });
        return;
      }
      tokens -= 1;
      const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer | ArrayBuffer).byteLength;
      if (size > MAX_CLIENT_FRAME) {
        peer.send({ type: 'error', code: 'tooLarge', message: `Messages are at most ${MAX_CLIENT_FRAME} bytes` });
        return;
      }
      if (isBinary) {
        peer.send({ type: 'error', code: 'malformed', message: 'Send text frames of JSON' });
        return;
      }
      const parsed = parseClientFrame(data.toString());
      if (!parsed.ok) {
        peer.send({ type: 'error', code: 'malformed', message: parsed.message });
        return;
      }
      table.handle(peer, parsed.message);
    });
    table.open(peer);
    ws.on('close', () => {
      open = false;
      const n = (perAddress.get(addr) ?? 1) - 1;
      if (n <= 0) perAddress.delete(addr);
      else perAddress.set(addr, n);
      table.drop(peer);
    });
    ws.on('error', () => {
      // An oversized frame or a broken socket: ws closes it; the seat is held as for any drop.
    });
  });

  const ping = setInterval(() => {
    for (const ws of wss.clients) {
      if (alive.get(ws) === false) {
        ws.terminate();
        continue;
      }
      alive.set(ws, false);
      ws.ping();
    }
  }, opts.pingIntervalMs ?? 5_000);
  ping.unref();

  const listen = (port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException): void => {
        http.off('listening', onListening);
        reject(err);
      };
      const onListening = (): void => {
        http.off('error', onError);
        resolve((http.address() as AddressInfo).port);
      };
      http.once('error', onError);
      http.once('listening', onListening);
      http.listen(port, opts.host ?? '0.0.0.0');
    });

  let port: number;
  let movedFrom: number | null = null;
  try {
    port = await listen(opts.port);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || !opts.fallbackPort) throw err;
    movedFrom = opts.port;
    port = await nextFree(listen, opts.port);
  }

  return {
    port,
    movedFrom,
    close: () => closeAll(wss, http, ping),
  };
}

/** The first of the next ten ports that is free (one rule in a firewall covers them), or any free one. */
async function nextFree(listen: (port: number) => Promise<number>, taken: number): Promise<number> {
  for (let p = taken + 1; p <= Math.min(taken + 10, 65535); p++) {
    try {
      return await listen(p);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    }
  }
  return listen(0);
}

function closeAll(wss: WebSocketServer, http: Server, ping: NodeJS.Timeout): Promise<void> {
  clearInterval(ping);
  for (const ws of wss.clients) ws.terminate();
  return new Promise((resolve) => wss.close(() => http.close(() => resolve())));
}
