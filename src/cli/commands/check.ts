/**
 * `farma-fuzz check`: one verdict JSON per input line, in order. A malformed line prints
 * `{"line":N,"error":"..."}` in its place (and the same message on stderr) and the run
 * carries on. Exit code 3 (input) when any line was bad, 4 (guard) when a verdict was a guard
 * error, else 0 (`src/cli/exit-codes.ts`).
 */
import type { MemoryEntry } from '../../domain/entry.js';
import type { Guard, Phase } from '../../domain/guard.js';
import type { ScratchStore } from '../../fuzz/evaluate.js';
import { evaluateCase } from '../../fuzz/evaluate.js';
import { readJsonl, validateMemoryEntry } from '../../corpus/jsonl.js';
import { redactWith, secretValues } from '../../domain/secrets.js';

export interface CheckLine {
  line: number;
  output: Record<string, unknown>;
  error?: string;
}

/** Checks every entry of a JSONL file; returns the output lines in input order. */
export async function checkFile(file: string, guard: Guard, store: ScratchStore, phase: Phase): Promise<CheckLine[]> {
  const { records, issues } = readJsonl(file, validateMemoryEntry);
  const rows: Array<{ line: number; entry?: MemoryEntry; error?: string }> = [
    ...records.map((r) => ({ line: r.line, entry: r.value })),
    ...issues.map((i) => ({ line: i.line, error: `${i.file}:${i.line}: ${i.message}` })),
  ].sort((a, b) => a.line - b.line);
  const out: CheckLine[] = [];
  // Guard text (reasons, signal and layer names, error messages) never carries a secret out.
  const secrets = secretValues();
  for (const row of rows) {
    if (row.entry === undefined) {
      out.push({ line: row.line, output: { line: row.line, error: row.error ?? 'bad line' }, error: row.error ?? 'bad line' });
      continue;
    }
    const c = { entry: row.entry, truth: { label: 'benign' as const, family: 'input', domain: 'input', template: 'input', operators: [] } };
    const v = await evaluateCase(guard, c, store, phase);
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
    out.push({ line: row.line, output: secrets.length > 0 ? redactWith(output, secrets) : output });
  }
  return out;
}
