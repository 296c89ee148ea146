export { loadModuleGuard, DEFAULT_GUARD_TIMEOUT_MS } from './module-guard.js';
export type { ModuleGuardOptions, ModuleGuardConfig } from './module-guard.js';
export { createHttpGuard } from './http-guard.js';
export type { HttpGuardOptions, HttpGuardConfig } from './http-guard.js';
export { createExecGuard } from './exec-guard.js';
export type { ExecGuardOptions, ExecGuardConfig } from './exec-guard.js';
export { toWireRequest } from './wire-request.js';
export type { WireRequest } from './wire-request.js';
