/**
 * The checks of `farma-fuzz check`: one verdict JSON per input line, in order. A malformed line
 * gives `{"line":N,"error":"..."}` in its place and the run carries on. The CLI prints the lines
 * and sets the exit code (3 when a line was bad, 4 when a verdict was a guard error).
 */
import type { MemoryEntry } from '../domain/entry.js';
import type { Guard, Phase } from '../domain/guard.js';
import type { ScratchStore } from '../fuzz/evaluate.js';
import { evaluateCase } from '../fuzz/evaluate.js';
import { mapInOrder } from '../fuzz/in-flight.js';
import { readJsonlFile, validateMemoryEntry } from '../corpus/jsonl.js';
import { redactWith, secretValues } from '../domain/secrets.js';

export interface CheckLine {
  line: number;
  output: Record<string, unknown>;
  error?: string;
  /** Words about the line that was still checked (invalid UTF-8 read as U+FFFD, a field value outside the known ones), each naming file:line. */
  warnings?: string[];
}

/**
 * Checks every entry of a JSONL file; returns the output lines in input order. An async
 * guard gets up to `concurrency` checks in flight (default 1); the output is the same.
 */
export async function checkFile(file: string, guard: Guard, store: ScratchStore, phase: Phase, concurrency = 1): Promise<CheckLine[]> {
  // Streamed: files of any size, also larger than V8's longest string.
  const { records, issues, warnings = [] } = await readJsonlFile(file, validateMemoryEntry);
  const warningOf = new Map<number, string[]>();
  for (const w of warnings) warningOf.set(w.line, [...(warningOf.get(w.line) ?? []), `${w.file}:${w.line}: ${w.message}`]);
  const rows: Array<{ line: number; entry?: MemoryEntry; error?: string }> = [
    ...records.map((r) => ({ line: r.line, entry: r.value })),
    ...issues.map((i) => ({ line: i.line, error: `${i.file}:${i.line}: ${i.message}` })),
  ].sort((a, b) => a.line - b.line);
  const verdicts = await mapInOrder(
    rows,
    (row) => (row.entry === undefined ? undefined : evaluateCase(guard, { entry: row.entry, truth: { label: 'benign' as const, family: 'input', domain: 'input', template: 'input', operators: [] } }, store, phase)),
    guard.mode === 'sync' ? 1 : concurrency,
  );
  const out: CheckLine[] = [];
  // Guard text (reasons, signal and layer names, error messages) never carries a secret out.
  const secrets = secretValues();
  for (const [i, row] of rows.entries()) {
    const v = verdicts[i];
    if (row.entry === undefined || v === undefined) {
      out.push({ line: row.line, output: { line: row.line, error: row.error ?? 'bad line' }, error: row.error ?? 'bad line' });
      continue;
    }
    const output: Record<string, unknown> = {
      id: row.entry.id,
      decision: v.decision,
      layer: v.layer ?? null,
      score: v.score ?? null,
      signals: v.signals ?? {},
      reasons: v.reasons,
      elapsedUs: Math.round(v.elapsedUs * 100) / 100,
    };
    if (v.error) output.error = v.error;
    const warning = warningOf.get(row.line);
    out.push({ line: row.line, output: secrets.length > 0 ? redactWith(output, secrets) : output, ...(warning !== undefined ? { warnings: warning } : {}) });
  }
  return out;
}
