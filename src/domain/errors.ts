/**
 * The error tree: one base class, `cause` kept (modelled on openai-node's
 * `src/core/error.ts`), and a `code` that says what kind of failure it is. Library code
 * throws these; only `src/cli` maps a `code` to an exit code (see `src/cli/exit-codes.ts`).
 */

/**
 * What kind of failure an error is:
 * - `usage`: a flag, option or config value the user gave is wrong (fix the command line);
 * - `input`: a file or record the run reads or writes is malformed or unusable (names file:line);
 * - `guard`: the guard under test cannot be loaded or started, or failed where a verdict was needed;
 * - `llm`: an LLM endpoint refused the key, does not exist, or cannot be reached;
 * - `internal`: a fault of farma-fuzz itself (a generator or the engine broke an invariant).
 */
const ERROR_CODES = ['usage', 'input', 'guard', 'llm', 'internal'] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Options every error of the tree takes: the underlying `cause`, and a `code` overriding the class default. */
export interface FarmaErrorOptions {
  cause?: unknown;
  code?: ErrorCode;
}

/** Base of the tree. `code` defaults per subclass; `internal` for a bare FarmaError. */
export class FarmaError extends Error {
  override readonly name: string = 'FarmaError';
  readonly code: ErrorCode;
  constructor(message: string, options: FarmaErrorOptions = {}) {
    super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
    this.code = options.code ?? (new.target as unknown as { defaultCode?: ErrorCode }).defaultCode ?? 'internal';
  }
}

/** Bad command-line use or bad option values (code `usage`). */
export class UsageError extends FarmaError {
  static readonly defaultCode: ErrorCode = 'usage';
  override readonly name = 'UsageError';
}

/** A malformed input file or record (code `input`). `file` and `line` (1-based) name the place. */
export class InputError extends FarmaError {
  static readonly defaultCode: ErrorCode = 'input';
  override readonly name = 'InputError';
  readonly file: string | undefined;
  readonly line: number | undefined;
  constructor(message: string, place: { file?: string; line?: number } = {}, options: FarmaErrorOptions = {}) {
    const where = place.file ? `${place.file}${place.line !== undefined ? `:${place.line}` : ''}: ` : '';
    super(`${where}${message}`, options);
    this.file = place.file;
    this.line = place.line;
  }
}

/** A template that does not compile or render (names the template file; code `input`). */
export class TemplateError extends FarmaError {
  static readonly defaultCode: ErrorCode = 'input';
  override readonly name = 'TemplateError';
}

/**
 * A guard module, endpoint or command that cannot be loaded or started (code `guard`).
 * An unknown built-in id is thrown with code `usage`.
 */
export class GuardLoadError extends FarmaError {
  static readonly defaultCode: ErrorCode = 'guard';
  override readonly name = 'GuardLoadError';
}

/** The memory store (SQLite) failed: unreadable, read-only, not a store (code `input`). */
export class StoreError extends FarmaError {
  static readonly defaultCode: ErrorCode = 'input';
  override readonly name = 'StoreError';
}

/** A corpus file could not be written or locked (code `input`). */
export class CorpusError extends FarmaError {
  static readonly defaultCode: ErrorCode = 'input';
  override readonly name = 'CorpusError';
}

/**
 * Why an LLM call failed:
 * - `auth`: the server refused the key (HTTP 401/403);
 * - `not-found`: no such endpoint or model (HTTP 404);
 * - `not-openai`: the start-up check got a 200 that is not a JSON chat completion (an HTML page);
 * - `unreachable`: no connection (refused, unknown host, timed out);
 * - `config`: LLM features asked for without configuration;
 * - `rate-limit` (429), `server` (5xx), `bad-request` (other 4xx), `bad-output` (no text,
 *   wrong vector count), `replay-miss` (no recorded fixture).
 */
export type LlmFailure = 'auth' | 'not-found' | 'not-openai' | 'unreachable' | 'config' | 'rate-limit' | 'server' | 'bad-request' | 'bad-output' | 'replay-miss';

/** Failures that no retry or later call can fix: the run must stop (exit 2) rather than count them. */
const FATAL_LLM_FAILURES: readonly LlmFailure[] = ['auth', 'not-found', 'not-openai', 'unreachable', 'config'];

/** An LLM call failed, or LLM features were asked for without configuration (code `llm`). */
export class LlmError extends FarmaError {
  static readonly defaultCode: ErrorCode = 'llm';
  override readonly name = 'LlmError';
  /** Why, when known (see {@link LlmFailure}). */
  readonly failure: LlmFailure | undefined;
  constructor(message: string, options: FarmaErrorOptions & { failure?: LlmFailure } = {}) {
    super(message, options);
    this.failure = options.failure;
  }
}

/**
 * `true` for an LlmError that says the endpoint cannot work at all (bad key, no such endpoint or
 * model, no connection, no configuration): callers that would count an LLM failure as one
 * unparseable answer rethrow these instead, so a dead endpoint never passes quietly.
 */
export function isFatalLlmError(e: unknown): e is LlmError {
  return e instanceof LlmError && e.failure !== undefined && FATAL_LLM_FAILURES.includes(e.failure);
}

/**
 * The engine could not finish a campaign (a generator threw, fast-check gave up, a worker
 * died). Code `internal`, unless its cause carries a code of its own (e.g. a StoreError).
 */
export class EngineError extends FarmaError {
  static readonly defaultCode: ErrorCode = 'internal';
  override readonly name = 'EngineError';
  constructor(message: string, options: FarmaErrorOptions = {}) {
    super(message, { ...options, ...(options.code === undefined && options.cause instanceof FarmaError ? { code: options.cause.code } : {}) });
  }
}

/**
 * The message of anything thrown: `Error.message`, or `String(value)` for a thrown
 * non-Error (a string, a number, `null`, an object without a usable `toString`). Never throws.
 * @example
 * errorMessage(new Error('boom')); // 'boom'
 * errorMessage('plain'); // 'plain'
 */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  try {
    return String(e);
  } catch {
    return Object.prototype.toString.call(e);
  }
}

/** The `code` of a thrown value: its own for the tree, `internal` for anything else. */
export function errorCode(e: unknown): ErrorCode {
  return e instanceof FarmaError ? e.code : 'internal';
}
