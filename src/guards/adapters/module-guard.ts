/**
 * Module adapter: loads a user's guard from a `.ts`, `.mts`, `.cts`, `.js`, `.mjs` or `.cjs`
 * file, in an ES-module or a CommonJS project (see `import-module.ts`), and makes
 * it safe to fuzz (throws, malformed answers and hangs become `error` verdicts).
 * Protocol: `docs/guard-protocol.md`, "Module guards".
 */
import { RUN_DEFAULTS } from '../../domain/defaults.js';
import { existsSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { GuardLoadError, errorVerdict, errorMessage } from '../../domain/index.js';
import { parseVerdict } from '../../domain/verdict-schema.js';
import type { Guard, GuardContext, MemoryEntry, StoreView, Verdict } from '../../domain/index.js';
import { startStopwatch } from './wire-request.js';
import { importModule } from './import-module.js';
import { Circuit, INPUT_TIMES_OUT_GUARD, InputFailureMemory, inputKey } from './failure-memory.js';
import { hangLimitMs, watchSync, type WatchedCall } from './sync-watchdog.js';

type WatchedEntry = WatchedCall['entry'];

/** The files the module adapter can load. */
/** The extensions a guard module may have, in the order a missing one is looked for. */
const MODULE_EXTENSIONS = ['.mjs', '.js', '.ts', '.mts', '.cjs', '.cts'] as const;
const MODULE_FILE = new RegExp(`(?:${MODULE_EXTENSIONS.map((e) => e.replace('.', '\\.')).join('|')})$`, 'i');
/** Interpreters suggested for a script given as a module path. */
const EXEC_RUNNERS: Readonly<Record<string, string>> = { '.py': 'python3', '.rb': 'ruby', '.sh': 'sh', '.pl': 'perl', '.php': 'php', '.r': 'Rscript', '.jl': 'julia', '.lua': 'lua' };

/** Default per-entry time bound of the module, HTTP and exec adapters, in milliseconds. */
export const DEFAULT_GUARD_TIMEOUT_MS = RUN_DEFAULTS.guardTimeoutMs;

export interface ModuleGuardOptions {
  /** Per-entry time bound in ms (default 5000). A check that has not settled by then gives an `error` (kind `timeout`). */
  timeoutMs?: number;
  /** Passed to the module's factory (`default` function or `createGuard`), if it exports one. */
  factoryOptions?: Record<string, unknown>;
  /** Directory that relative paths are resolved against (default `process.cwd()`). */
  cwd?: string;
  /** Hang limit in ms of one synchronous `check` call (default `hangLimitMs(timeoutMs)`: `FARMA_FUZZ_HANG_MS`, else 4 × timeoutMs, at least 30 s); past it the process is ended with a note naming the guard and the entry (`sync-watchdog.ts`). */
  hangMs?: number;
}

/** The wrapped guard's configuration, as it appears in reports. */
export interface ModuleGuardConfig {
  adapter: 'module';
  path: string;
  timeoutMs: number;
  inner: unknown;
}

/**
 * Loads a guard module and wraps it.
 *
 * The module must export one of, looked up in this order:
 * 1. `guard`: an object implementing `Guard` (at least a `check` function);
 * 2. `default`: a `Guard` object, a factory function returning one (sync or async), or the
 *    check function itself (named `check`, or declared with `entry, ctx`);
 * 3. `createGuard`: a factory function returning a `Guard` (sync or async);
 * 4. `check`: the check function itself;
 * 5. the one export of any name that is a `Guard` object.
 * Factories are called with `options.factoryOptions` (or `{}`).
 *
 * The returned guard has `mode: 'async'` and keeps the inner guard's `id` (or `module:<file>`
 * when it has none). Its `check` never rejects: a throw gives an `error` verdict of kind
 * `threw`, a value that is not a Verdict gives kind `malformed`, and a check still pending
 * after `timeoutMs` gives kind `timeout`. `elapsedUs` is the wall time the adapter measured.
 * Only asynchronous hangs can be cut off: a guard that blocks the event loop cannot. A
 * synchronous call still running after the hang limit (`options.hangMs`) ends the process
 * with SIGKILL after a stderr note naming the guard and the entry (`sync-watchdog.ts`).
 *
 * @param path file path, relative to `options.cwd` (default the current directory).
 * @throws GuardLoadError naming the file when it is missing, fails to import, or exports no valid guard.
 * @example
 * const guard = await loadModuleGuard('examples/module-guard.ts', { timeoutMs: 2000 });
 * const verdict = await guard.check(entry, { phase: 'write', store: EMPTY_STORE });
 */
export async function loadModuleGuard(path: string, options: ModuleGuardOptions = {}): Promise<Guard> {
  const file = resolve(options.cwd ?? process.cwd(), path);
  const timeoutMs = options.timeoutMs ?? DEFAULT_GUARD_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw new GuardLoadError(`guard module ${file}: timeoutMs must be > 0, got ${timeoutMs}`);
  if (!existsSync(file)) {
    // `localhost:8080/check` or `127.0.0.1:8787/check`: an endpoint written without its scheme.
    const endpoint = /^[\w.-]+:\d+(\/|$)/.test(path) ? `; did you mean --guard http://${path} (an HTTP endpoint needs its http:// or https://)?` : '';
    // `--guard ./my-guard` for my-guard.mjs: name the file that is there.
    const withExt = endpoint === '' ? MODULE_EXTENSIONS.find((ext) => existsSync(`${file}${ext}`)) : undefined;
    const hint = withExt !== undefined ? `; did you mean --guard ${path}${withExt} (the extension is needed)?` : '';
    throw new GuardLoadError(`guard module not found: ${file}${endpoint}${hint}`, { code: 'usage' });
  }
  if (!MODULE_FILE.test(file)) {
    const ext = extname(file);
    const runner = EXEC_RUNNERS[ext.toLowerCase()];
    const hint = runner ? `; to run it as a subprocess guard speaking JSON lines, give --guard "exec:${runner} ${path}" (docs/guard-protocol.md, "Exec guards")` : '';
    throw new GuardLoadError(`guard ${path} is not a module guard: a module is a .ts, .mts, .cts, .js, .mjs or .cjs file, got ${ext ? `a ${ext} file` : 'a file without an extension'}${hint}`, { code: 'usage' });
  }

  let mod: Record<string, unknown>;
  try {
    mod = await importModule(file, { liftDefault: true });
  } catch (cause) {
    const why = errorMessage(cause);
    throw new GuardLoadError(`guard module ${file} failed to import: ${why}`, { cause });
  }

  const inner = await pickGuard(mod, file, options.factoryOptions ?? {});
  const init = (inner as { init?: unknown }).init;
  if (typeof init === 'function') {
    // An optional set-up hook (load a model, open a connection), awaited once before the first check.
    try {
      await (init as (o: Record<string, unknown>) => unknown).call(inner, options.factoryOptions ?? {});
    } catch (cause) {
      throw new GuardLoadError(`guard module ${file}: init() threw: ${errorMessage(cause)}`, { cause });
    }
  }
  let hangMs: number;
  try {
    hangMs = options.hangMs ?? hangLimitMs(timeoutMs);
  } catch (e) {
    throw new GuardLoadError(`guard module ${file}: ${errorMessage(e)}`);
  }
  if (!(hangMs > 0)) throw new GuardLoadError(`guard module ${file}: hangMs must be > 0, got ${hangMs}`);
  return wrapGuard(inner, file, timeoutMs, hangMs);
}

/** How to make a default export read as the check itself (`isCheckFunction`), for the factory errors. */
const CHECK_NAMING_HINT = 'name it check (`export default function check(entry, ctx)`, or `export function check`) or give it both parameters, or export { check }';

async function pickGuard(mod: Record<string, unknown>, file: string, factoryOptions: Record<string, unknown>): Promise<Guard> {
  const candidates: Array<[string, unknown]> = [
    ['guard', mod.guard],
    ['default', mod.default],
    ['createGuard', mod.createGuard],
  ];
  for (const [name, value] of candidates) {
    if (value === undefined) continue;
    if (isGuardLike(value)) return validateGuard(value, file, `export "${name}"`);
    // `export default function check(entry, ctx) {…}`: the check itself, not a factory.
    if (name === 'default' && isCheckFunction(value)) return bareCheck(value, file);
    if (typeof value === 'function' && name !== 'guard') {
      let made: unknown;
      try {
        // `export default class MyGuard { check() {…} }`: a class is constructed, not called.
        made = isClass(value) ? new (value as new (o: Record<string, unknown>) => unknown)(factoryOptions) : await (value as (o: Record<string, unknown>) => unknown)(factoryOptions);
      } catch (cause) {
        const why = errorMessage(cause);
        // A one-parameter default function is called as a factory (options → guard); a check written that way reads its options as an entry and throws.
        const hint = name === 'default' && !isClass(value) && (value as (...a: unknown[]) => unknown).length <= 1 ? `; it was called as a factory (options → guard): if it is the check itself (entry → verdict), ${CHECK_NAMING_HINT}` : '';
        throw new GuardLoadError(`guard module ${file}: factory export "${name}" threw: ${why}${hint}`, { cause });
      }
      if (typeof made === 'object' && made !== null && 'decision' in made && !('check' in made)) {
        throw new GuardLoadError(
          `guard module ${file}: factory export "${name}" returned a verdict, not a guard: if it is the check itself, ${CHECK_NAMING_HINT}`,
        );
      }
      return validateGuard(made, file, `the value returned by factory "${name}"`);
    }
    throw new GuardLoadError(
      `guard module ${file}: export "${name}" is ${describe(value)}, expected a Guard object with a check() function` +
        (name === 'guard' ? '' : ' or a factory function returning one'),
    );
  }
  // `export function check(entry, ctx) {…}` alone.
  if (typeof mod.check === 'function' && !isClass(mod.check)) return bareCheck(mod.check as Guard['check'], file);
  const names = Object.keys(mod);
  // One guard object exported under a name of its own (`export const myGuard = { check }`): nothing else to choose from.
  const guardLike = names.filter((n) => isGuardLike(mod[n]));
  if (guardLike.length === 1) return validateGuard(mod[guardLike[0] as string], file, `export "${guardLike[0]}"`);
  throw new GuardLoadError(
    `guard module ${file} exports no guard: expected "guard", "default" or "createGuard" ` +
      `(found ${names.length ? names.map((n) => `"${n}"`).join(', ') : 'no exports'})` +
      (guardLike.length > 1 ? `; several exports have a check() function (${guardLike.join(', ')}): export the one to test as "guard"` : ''),
  );
}

/**
 * A default export that is the check function itself rather than a factory: a plain function
 * (not a class) named `check`, or declared with two or more parameters (`entry, ctx`). A
 * factory takes at most its options object.
 */
function isCheckFunction(value: unknown): value is Guard['check'] {
  return typeof value === 'function' && !isClass(value) && (value.name === 'check' || value.length >= 2);
}

/** A guard around a bare check function; `sync` unless it was declared `async` (then its calls may overlap). */
function bareCheck(check: Guard['check'], file: string): Guard {
  const declaredAsync = Object.prototype.toString.call(check) === '[object AsyncFunction]';
  return { id: `module:${basename(file)}`, mode: declaredAsync ? 'async' : 'sync', check: (entry, ctx) => check(entry, ctx) } as Guard;
}

function isClass(value: unknown): boolean {
  return typeof value === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(value));
}

function isGuardLike(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { check?: unknown }).check === 'function';
}

function validateGuard(value: unknown, file: string, what: string): Guard {
  const fail = (why: string): never => {
    throw new GuardLoadError(`guard module ${file}: ${what} ${why}`);
  };
  if (typeof value !== 'object' || value === null) return fail(`is ${describe(value)}, expected a Guard object`);
  const g = value as Record<string, unknown>;
  if (typeof g.check !== 'function') fail(`has no check() function`);
  if (g.id !== undefined && (typeof g.id !== 'string' || g.id.length === 0)) fail(`has an invalid id ${JSON.stringify(g.id)}`);
  if (g.mode !== undefined && g.mode !== 'sync' && g.mode !== 'async') fail(`has mode ${JSON.stringify(g.mode)}, expected "sync" or "async"`);
  if (g.close !== undefined && typeof g.close !== 'function') fail(`has a close that is not a function`);
  if (g.init !== undefined && typeof g.init !== 'function') fail(`has an init that is not a function`);
  if (g.cacheVerdicts !== undefined && typeof g.cacheVerdicts !== 'boolean') fail(`has cacheVerdicts ${JSON.stringify(g.cacheVerdicts)}, expected true or false (false: a stateful guard, asked every time)`);
  return value as Guard;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object without a check() function';
  return `a ${typeof value}`;
}

function wrapGuard(inner: Guard, file: string, timeoutMs: number, hangMs: number): Guard {
  const id = typeof inner.id === 'string' && inner.id.length > 0 ? inner.id : `module:${basename(file)}`;
  const config: ModuleGuardConfig = { adapter: 'module', path: file, timeoutMs, inner: inner.config };
  const guard: Guard = {
    id,
    mode: 'async',
    config,
    // Each call is bounded below (checkBounded, with the input memory and the circuit).
    boundsOwnCalls: true,
    // A stateful module guard opts out of the run's verdict cache (src/fuzz/query-meter.ts).
    ...(inner.cacheVerdicts === false ? { cacheVerdicts: false } : {}),
    // A synchronous inner check runs one at a time whatever is in flight: drawing cases ahead would only waste queries.
    // An async one keeps the cap it declares.
    ...(inner.mode === 'sync' ? { concurrencyLimit: 1 } : typeof inner.concurrencyLimit === 'number' && inner.concurrencyLimit >= 1 ? { concurrencyLimit: Math.floor(inner.concurrencyLimit) } : {}),
    check: (entry: MemoryEntry, ctx: GuardContext) => checkRemembered(entry, ctx),
  };

  // A guard that hangs must cost a bounded amount of waiting, as the exec and HTTP adapters
  // bound it (docs/guard-protocol.md, "Crashes, timeouts and the circuit"): an input that timed
  // out INPUT_FAILURE_LIMIT times is answered `timeout` at once, and CIRCUIT_THRESHOLD distinct
  // inputs timing out in a row open the circuit. Throws and malformed answers are answers.
  const memory = new InputFailureMemory(INPUT_FAILURE_LIMIT);
  const circuit = new Circuit({ threshold: CIRCUIT_THRESHOLD, cooldownMs: CIRCUIT_COOLDOWN_MS, maxCooldownMs: MAX_COOLDOWN_MS });
  let timedOutInputs = 0;
  const keyOf = (entry: MemoryEntry, ctx: GuardContext): string | undefined => {
    try {
      return inputKey(entry, ctx.phase);
    } catch {
      return undefined;
    }
  };
  async function checkRemembered(entry: MemoryEntry, ctx: GuardContext): Promise<Verdict> {
    // The input key (a hash) is computed only once some input has timed out: the common path stays free.
    let key = timedOutInputs > 0 ? keyOf(entry, ctx) : undefined;
    const known = key !== undefined ? memory.blocked(key) : undefined;
    if (known) return errorVerdict('timeout', `${INPUT_TIMES_OUT_GUARD}: guard ${id} did not answer it within ${timeoutMs} ms ${known.record.timeout} times, so it is not sent again`, 0);
    const gate = circuit.admit();
    if (!gate.pass) return errorVerdict('unavailable', `guard ${id} is down: ${gate.reason}`, 0);
    const answersAtSend = circuit.answers;
    const v = await checkBounded(inner, entry, ctx, timeoutMs, file, { guard: id, hangMs });
    if (v.error?.kind !== 'timeout') {
      circuit.success(gate.probe);
      return v;
    }
    key ??= keyOf(entry, ctx);
    if (key === undefined) return v;
    timedOutInputs++;
    circuit.failure(key, gate.probe, answersAtSend);
    const n = memory.record(key, 'timeout', v.error.message, entry.content.slice(0, 120));
    const note = n < INPUT_FAILURE_LIMIT ? `timeout ${n} of this input; after ${INPUT_FAILURE_LIMIT} it is not sent again` : `timeout ${n} of this input; it is not sent again`;
    return errorVerdict('timeout', `${v.error.message} (${note})`, v.elapsedUs);
  }
  if (typeof inner.close === 'function') {
    const close = inner.close.bind(inner);
    return { ...guard, close: async () => void (await close()) };
  }
  return guard;
}

/** Timeouts of one input after which it is not sent again (as the exec and HTTP adapters' default). */
const INPUT_FAILURE_LIMIT = 2;
/** Distinct inputs timing out in a row that open the circuit. */
const CIRCUIT_THRESHOLD = 10;
/** First open period of the circuit, ms, doubled per failed probe up to {@link MAX_COOLDOWN_MS}. */
const CIRCUIT_COOLDOWN_MS = 1000;
const MAX_COOLDOWN_MS = 30_000;

/** Runs one inner check under the time bound; always resolves to a Verdict. */
async function checkBounded(inner: Guard, entry: MemoryEntry, ctx: GuardContext, timeoutMs: number, file: string, watch: { guard: string; hangMs: number }): Promise<Verdict> {
  const elapsed = startStopwatch();
  let returned: unknown;
  try {
    // Called as a method so class-based guards keep `this`. The guard gets its own copy of the
    // entry and a view it cannot re-wire: a guard that edits what it is given must never change
    // the case the fuzzer records, shrinks and writes to the corpus.
    // The watchdog ends the process, with a note naming the guard and the entry, when the
    // synchronous part of the call blocks past the hang limit (it cannot be cut off).
    const given = copyOf(entry);
    const view = readOnlyView(ctx.store);
    returned = watchSync({ guard: watch.guard, file, timeoutMs, hangMs: watch.hangMs, phase: ctx.phase, entry: entry as unknown as WatchedEntry }, () => inner.check(given, { phase: ctx.phase, store: view }));
  } catch (cause) {
    return errorVerdict('threw', `guard threw: ${messageOf(cause, file)}`, elapsed());
  }
  if (!isThenable(returned)) {
    // A synchronous answer: its time is the call's own, never the wait behind other checks in flight.
    const tookUs = elapsed();
    if (tookUs > timeoutMs * 1000) return errorVerdict('timeout', `guard answered after ${(tookUs / 1000).toFixed(0)} ms, over the ${timeoutMs} ms bound`, tookUs);
    const parsed = parseVerdict(returned);
    if (!parsed.ok) return errorVerdict('malformed', `guard returned a malformed verdict: ${parsed.message}`, tookUs);
    return { ...parsed.verdict, elapsedUs: tookUs };
  }
  const pending = Promise.resolve(returned);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((res) => {
    timer = setTimeout(() => res('timeout'), timeoutMs);
  });
  const settled = pending.then(
    (value) => ({ ok: true as const, value }),
    (cause: unknown) => ({ ok: false as const, cause }),
  );
  try {
    const outcome = await Promise.race([settled, timedOut]);
    if (outcome === 'timeout') return errorVerdict('timeout', `guard did not answer within ${timeoutMs} ms`, elapsed());
    // A synchronous guard cannot be interrupted, but a late answer is still a timeout, never a verdict.
    const tookUs = elapsed();
    if (tookUs > timeoutMs * 1000) return errorVerdict('timeout', `guard answered after ${(tookUs / 1000).toFixed(0)} ms, over the ${timeoutMs} ms bound`, tookUs);
    if (!outcome.ok) return errorVerdict('threw', `guard threw: ${messageOf(outcome.cause, file)}`, tookUs);
    // The guard's time stops when it answered: reading its answer is farma-fuzz's work.
    const parsed = parseVerdict(outcome.value);
    if (!parsed.ok) return errorVerdict('malformed', `guard returned a malformed verdict: ${parsed.message}`, tookUs);
    return { ...parsed.verdict, elapsedUs: tookUs };
  } finally {
    clearTimeout(timer);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** A deep copy of the entry for the guard (the entry itself when it holds something that cannot be cloned). */
function copyOf(entry: MemoryEntry): MemoryEntry {
  try {
    return structuredClone(entry);
  } catch {
    return entry;
  }
}

const readOnlyViews = new WeakMap<StoreView, StoreView>();

/** A frozen view that forwards to `view`, one per view: a guard that assigns to it cannot change what later checks see. */
function readOnlyView(view: StoreView): StoreView {
  let ro = readOnlyViews.get(view);
  if (ro === undefined) {
    const forward: StoreView = {
      size: (store) => view.size(store),
      countByKey: (key, store) => view.countByKey(key, store),
      countByTraceType: (traceType, store) => view.countByTraceType(traceType, store),
      search: (query, k, store) => view.search(query, k, store),
    };
    const termMatches = view.termMatches;
    if (typeof termMatches === 'function') forward.termMatches = (query, perTerm, store) => termMatches.call(view, query, perTerm, store);
    ro = Object.freeze(forward);
    readOnlyViews.set(view, ro);
  }
  return ro;
}

/** `file:line:column` of the first stack frame in the guard's own file (split, not matched: a stack line is guard text). */
function stackLocation(stack: string, base: string): string | undefined {
  for (const raw of stack.split('\n').slice(0, 50)) {
    let line = raw.trim();
    if (line.endsWith(')')) line = line.slice(0, -1);
    if (!line.includes(base)) continue;
    const tail = line.slice(Math.max(line.lastIndexOf('/'), line.lastIndexOf('\\'), line.lastIndexOf('('), line.lastIndexOf(' ')) + 1);
    const parts = tail.split(':');
    const isNumber = (x: string | undefined): boolean => x !== undefined && x.length > 0 && x.length < 10 && [...x].every((c) => c >= '0' && c <= '9');
    if (parts.length >= 3 && isNumber(parts[parts.length - 1]) && isNumber(parts[parts.length - 2])) return tail;
  }
  return undefined;
}

/**
 * What a guard threw, for its `threw` verdict: an Error's name (when not plain `Error`) and
 * message, with the line of the guard's own file it came from; a thrown non-Error said as such.
 */
function messageOf(cause: unknown, file: string): string {
  if (cause instanceof Error) {
    const name = cause.name && cause.name !== 'Error' ? `${cause.name}: ` : '';
    const where = stackLocation(cause.stack ?? '', basename(file));
    return `${name}${errorMessage(cause)}${where ? ` (at ${where})` : ''}`;
  }
  if (typeof cause === 'string') return cause;
  if (cause === null || cause === undefined || typeof cause !== 'object') return `the value ${String(cause)} (not an Error)`;
  let json: string | undefined;
  try {
    json = JSON.stringify(cause);
  } catch {
    json = undefined;
  }
  return `a non-Error object ${json !== undefined && json !== '{}' ? (json.length > 300 ? `${json.slice(0, 300)}…` : json) : errorMessage(cause)}`;
}
