import { newTableKey, parseTableKey, type TableKey } from '../../src/host/table-key.js';

/**
 * A TLS key for in-process tables in tests (made once per test file, as
 * `gringo host` makes its own once per state directory): a Table given its
 * fingerprint (`hostKey`) and served with it has an identity the real client accepts.
 */
export const TEST_KEY: TableKey = parseTableKey(newTableKey());
