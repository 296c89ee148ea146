/**
 * How a long run reports progress, without knowing where it goes: the CLI passes a bar or log
 * lines (`src/cli/progress.ts`), tests and library callers pass `silentProgress`.
 */
export interface Progress {
  /** A new phase of `total` cases begins. */
  start(total: number, label: string): void;
  /** `done` cases of the current phase are finished. */
  update(done: number, label?: string): void;
  /** One line of news (a cell finished, a budget ran out). */
  log(line: string): void;
  stop(): void;
}

/** A progress that reports nothing. */
export const silentProgress: Progress = Object.freeze({ start() {}, update() {}, log() {}, stop() {} });
