// Worker-thread shim for running a TypeScript worker module under tsx (Node 20 does not apply
// `--import tsx` hooks inside worker threads). Piscina loads this plain ES module; it imports
// the TypeScript module named by `workerData.target` through tsx's `tsImport` and re-exports
// its default handler. Used by `fuzzWorkerPool()` in ./fuzz-worker.ts.
import { workerData } from 'piscina';
import { tsImport } from 'tsx/esm/api';

const target = workerData && typeof workerData.target === 'string' ? workerData.target : undefined;
if (target === undefined) throw new Error('ts-worker-entry: workerData.target (a file URL of a TypeScript module) is required');
const mod = await tsImport(target, import.meta.url);
if (typeof mod.default !== 'function') throw new Error(`ts-worker-entry: ${target} has no default-exported function`);
export default mod.default;
