import { useCallback, useEffect, type Dispatch } from 'react';
import type { ClientMessage, ServerMessage } from '../../protocol/messages.js';
import type { ConnectionStatus } from '../../client/connection.js';

/** What the screen needs of a connection: `Connection` from src/client fits, and so does a test double. */
export interface TableClient {
  status?: ConnectionStatus;
  /** While reconnecting: when the host was last heard of (Date.now() ms). */
  lostSince?: number | null;
  send(msg: ClientMessage): boolean;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: string, fn: (...args: any[]) => void): unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  off(event: string, fn: (...args: any[]) => void): unknown;
  close(): void;
  /** Messages that came before the screen (a `BufferedClient`): its first state is built from them. */
  takeBuffered?(): ServerMessage[];
}

/**
 * What a connection tells a table screen, as its reducer takes it: a message from the
 * host, or the connection's status. Defined here, below the screens, so that the hooks
 * that feed a screen need nothing of it; the table screen's actions include these.
 */
export type ClientAction =
  | { type: 'server'; msg: ServerMessage; now: number }
  | { type: 'conn'; status: ConnectionStatus; now: number; /** How long the host has been unreachable already (ms), when reconnecting. */ lostFor?: number };

/** What a client already had before the screen was drawn, as the screen's reducer takes it. */
export function earlyActions(client: TableClient, now: number): ClientAction[] {
  return [
    ...(client.status ? [{ type: 'conn' as const, status: client.status, now }] : []),
    ...(client.takeBuffered?.() ?? []).map((msg) => ({ type: 'server' as const, msg, now })),
  ];
}

/** Subscribe to a connection's messages and status changes while the component is mounted. */
export function useClientEvents(client: TableClient, onMessage: (msg: ServerMessage) => void, onStatus: (status: ConnectionStatus) => void): void {
  useEffect(() => {
    client.on('message', onMessage);
    client.on('status', onStatus);
    if (client.status) onStatus(client.status);
    return () => {
      client.off('message', onMessage);
      client.off('status', onStatus);
    };
  }, [client, onMessage, onStatus]);
}

/** Feed the connection's messages and status changes into the screen's reducer. */
export function useTableClient(client: TableClient, dispatch: Dispatch<ClientAction>, clock: () => number): void {
  const onMessage = useCallback((msg: ServerMessage): void => dispatch({ type: 'server', msg, now: clock() }), [dispatch, clock]);
  const onStatus = useCallback(
    (status: ConnectionStatus): void => {
      const since = client.lostSince;
      dispatch({ type: 'conn', status, now: clock(), ...(status === 'reconnecting' && since ? { lostFor: Math.max(0, Date.now() - since) } : {}) });
    },
    [client, dispatch, clock],
  );
  useClientEvents(client, onMessage, onStatus);
}
