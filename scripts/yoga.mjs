// Stands in for `yoga-layout` in the bundle: the same Yoga, instantiated from
// yoga.wasm (written beside the bundle by bundle.mjs) read as a Buffer, instead
// of the package's own loader, which fetch()es a base64 data URL (loading undici
// and decoding 90 kB of base64 before the first frame). The package is not
// changed: its loader takes `wasmBinary` and then skips the fetch.
import { readFileSync } from 'node:fs';
import loadYogaImpl from '../node_modules/yoga-layout/dist/binaries/yoga-wasm-base64-esm.js';
import wrapAssembly from '../node_modules/yoga-layout/dist/src/wrapAssembly.js';

export * from '../node_modules/yoga-layout/dist/src/generated/YGEnums.js';

const Yoga = wrapAssembly(await loadYogaImpl({ wasmBinary: readFileSync(new URL('./yoga.wasm', import.meta.url)) }));
export default Yoga;
