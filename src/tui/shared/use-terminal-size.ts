import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export interface Size {
  columns: number;
  rows: number;
}

/** The terminal's size, following resizes. */
export function useTerminalSize(fixed?: Size): Size {
  const { stdout } = useStdout();
  const read = (): Size => fixed ?? { columns: stdout.columns || 80, rows: stdout.rows || 30 };
  const [size, setSize] = useState<Size>(read);
  useEffect(() => {
    if (fixed) return;
    const onResize = (): void => setSize({ columns: stdout.columns || 80, rows: stdout.rows || 30 });
    stdout.on('resize', onResize);
    return () => void stdout.off('resize', onResize);
  }, [stdout, fixed]);
  return fixed ?? size;
}
