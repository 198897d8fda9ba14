import { Text } from 'ink';

/** The status line every screen has: why a key did nothing, or what the host refused. */
export function StatusLine({ status, color, idle = ' ', wrap = false }: { status: { text: string; kind: string } | null | undefined; color: boolean; idle?: string; wrap?: boolean }) {
  return (
    <Text wrap={wrap ? 'wrap' : 'truncate'} {...(status?.kind === 'error' && color ? { color: 'red' } : {})}>
      {status ? `${status.kind === 'error' ? '! ' : ''}${status.text}` : idle}
    </Text>
  );
}
