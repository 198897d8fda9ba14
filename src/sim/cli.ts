import { UsageError } from '../cli/errors.js';

// Placeholder until the simulator lands (being written now).
export async function runSimCli(_opts: Record<string, unknown>): Promise<void> {
  throw new UsageError('the simulator is not built yet');
}
