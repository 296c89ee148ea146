/**
 * The error tree: one base class, `cause` kept (modelled on openai-node's
 * `src/core/error.ts`). Library code throws these; only `src/cli` maps them to exit codes.
 */

export class FarmaError extends Error {
  override readonly name: string = 'FarmaError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Bad command-line use or bad option values (exit code 2). */
export class UsageError extends FarmaError {
  override readonly name = 'UsageError';
}

/** A malformed input file or record. `file` and `line` (1-based) name the place. */
export class InputError extends FarmaError {
  override readonly name = 'InputError';
  readonly file: string | undefined;
  readonly line: number | undefined;
  constructor(message: string, place: { file?: string; line?: number } = {}, options?: { cause?: unknown }) {
    const where = place.file ? `${place.file}${place.line !== undefined ? `:${place.line}` : ''}: ` : '';
    super(`${where}${message}`, options);
    this.file = place.file;
    this.line = place.line;
  }
}

/** A template that does not compile or render (names the template file). */
export class TemplateError extends FarmaError {
  override readonly name = 'TemplateError';
}

/** An unknown guard id, or a guard module/endpoint that cannot be loaded. */
export class GuardLoadError extends FarmaError {
  override readonly name = 'GuardLoadError';
}

/** The memory store (SQLite) failed. */
export class StoreError extends FarmaError {
  override readonly name = 'StoreError';
}

/** A corpus file could not be written or locked. */
export class CorpusError extends FarmaError {
  override readonly name = 'CorpusError';
}

/** An LLM call failed, or LLM features were asked for without configuration. */
export class LlmError extends FarmaError {
  override readonly name = 'LlmError';
}
