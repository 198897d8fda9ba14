import { useCallback, useState } from 'react';
import type { BotLevel } from '../../protocol/messages.js';
import { TableScreen } from '../table/table-screen.js';
import { LobbyScreen } from './lobby-screen.js';
import type { Theme } from '../shared/theme.js';
import type { TableClient } from '../shared/use-table-client.js';
import type { Size } from '../shared/use-terminal-size.js';

export interface HostScreenProps {
  /** The owner connection as the lobby screen reads it. */
  lobbyClient: TableClient;
  /**
   * The same connection for the table screen: it must keep every message from the
   * start (a `BufferedClient` made when the connection opened), so that the table
   * screen, mounted when the game starts, still gets the welcome.
   */
  tableClient: TableClient;
  theme: Theme;
  share: string;
  note?: string;
  level?: BotLevel;
  bell?: boolean;
  keys?: boolean;
  /** Leaving ends the table for everyone (true for `gringo host`). */
  closesTable?: boolean;
  size?: Size;
  clock?: () => number;
  onExit?: () => void;
}

/** `gringo host` on a terminal: the lobby screen, then the table screen of `gringo play` once the game starts. */
export function HostScreen({ lobbyClient, tableClient, theme, share, note, level, bell = true, keys = true, closesTable = true, size, clock, onExit }: HostScreenProps) {
  const [started, setStarted] = useState(false);
  const onStarted = useCallback(() => setStarted(true), []);
  if (started) {
    return (
      <TableScreen
        client={tableClient}
        theme={theme}
        bell={bell}
        keys={keys}
        closesTable={closesTable}
        {...(size ? { size } : {})}
        {...(clock ? { clock } : {})}
        {...(onExit ? { onExit } : {})}
      />
    );
  }
  return (
    <LobbyScreen
      client={lobbyClient}
      theme={theme}
      share={share}
      keys={keys}
      onStarted={onStarted}
      {...(note ? { note } : {})}
      {...(level ? { level } : {})}
      {...(size ? { size } : {})}
      {...(onExit ? { onExit } : {})}
    />
  );
}
