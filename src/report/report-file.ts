/**
 * Reading a `report.json` back (for `compare` and `fuzz --baseline`): JSON parse errors with
 * the line and column, then a zod check of the fields a comparison reads, each problem named
 * by its key path (`cells[3].violationRate.n`). Fields it does not read are left unchecked, so
 * reports from older and newer versions that share these fields still load.
 */
import { InputError } from '../domain/errors.js';
import { zod } from '../domain/zod-lazy.js';
import type { ReportData } from './model.js';

/** 1-based line and column of a character offset in `text`. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

let schema: ReturnType<typeof buildSchema> | undefined;

function buildSchema() {
  const z = zod();
  const count = z.number().int().nonnegative();
  const interval = z
    .object({ rate: z.number(), low: z.number(), high: z.number(), n: count, k: count })
    .loose()
    .refine((i) => i.k <= i.n, { message: 'k is larger than n (more cases counted than run)', path: ['k'] });
  const tally = z.object({ runs: count, violations: count }).loose();
  return z
    .object({
      tool: z.object({ name: z.literal('farma-fuzz'), version: z.string() }).loose(),
      generatedAt: z.string(),
      config: z
        .object({
          guard: z.string(),
          guardConfigHash: z.string(),
          seed: z.number(),
          runsPerCell: z.number(),
          phase: z.string(),
          domains: z.array(z.string()),
          families: z.array(z.string()),
          maxFailures: z.number(),
          versions: z.record(z.string(), z.string()),
          guardOptions: z.record(z.string(), z.unknown()).optional(),
        })
        .loose(),
      summary: z.object({ held: z.boolean(), totalRuns: count, violations: count, errors: count }).loose(),
      cells: z.array(
        z
          .object({
            domain: z.string(),
            family: z.string(),
            property: z.string(),
            runs: count,
            violations: count,
            errors: count,
            violationRate: interval,
            breakdown: z.object({ operator: z.record(z.string(), tally) }).loose(),
            counterexamples: z.array(z.string()),
          })
          .loose()
          .refine((c) => c.violations + c.errors <= c.runs, { message: 'violations plus errors is larger than runs (more cases counted than run)', path: ['violations'] }),
      ),
      fpr: z
        .object({
          generated: z.array(z.object({ domain: z.string(), fpr: interval, errors: count }).loose()),
          real: z.array(
            z
              .object({ name: z.string(), source: z.string(), fpr: interval, errors: count })
              .loose()
              .refine((r) => r.fpr.k + r.errors <= r.fpr.n, { message: 'rejections (fpr.k) plus errors is larger than the rows (fpr.n)', path: ['errors'] }),
          ),
        })
        .loose(),
      counterexamples: z.array(
        z
          .object({
            id: z.string(),
            domain: z.string(),
            family: z.string(),
            property: z.string(),
            judgement: z.string(),
            kind: z.string().optional(),
            signature: z.string(),
            replay: z.string(),
          })
          .loose(),
      ),
      attack: z
        .object({
          overall: z.object({ asr: interval }).loose(),
          operators: z.array(z.object({ operator: z.string(), queries: count, flips: count }).loose()),
        })
        .loose()
        .optional(),
    })
    .loose();
}

/** `cells[3].violationRate.n` from a zod issue path. */
function keyPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `${out === '' ? '' : '.'}${String(p)}`;
  return out === '' ? '(top level)' : out;
}

/**
 * Parses the text of a `report.json` written by `fuzz` or `merge-reports`.
 *
 * @param file the name used in error messages.
 * @throws InputError naming `file` (and `file:line:column` for bad JSON), or the key path of
 *   the first problems, when the text is not valid JSON or not a farma-fuzz report (a shard
 *   blob, an `fpr` report or a `search` report is named as such).
 * @example
 * const report = parseReportJson(readFileSync('reports/run/report.json', 'utf8'), 'reports/run/report.json');
 */
export function parseReportJson(text: string, file: string): ReportData {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    const msg = cause instanceof Error ? cause.message : String(cause);
    const at = /position (\d+)/.exec(msg);
    const where = at && !/line \d+/.test(msg) ? lineColumn(text, Number(at[1])) : undefined;
    throw new InputError(`not valid JSON${where ? ` at line ${where.line}, column ${where.column}` : ''}: ${msg}`, { file }, { cause });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InputError('not a farma-fuzz report: expected a JSON object (the report.json of a fuzz run)', { file });
  const v = value as Record<string, unknown>;
  if (v.shard !== undefined && v.cells === undefined) throw new InputError('this is a shard blob of fuzz --shard, not a report: merge the shards with merge-reports first, then compare its report.json', { file });
  if ((v.tool as { name?: unknown } | undefined)?.name !== 'farma-fuzz') throw new InputError('not a farma-fuzz report: no "tool": { "name": "farma-fuzz" } (give the report.json that fuzz or merge-reports wrote)', { file });
  if (v.cells === undefined && (v.estimate !== undefined || v.sets !== undefined || v.budget !== undefined)) throw new InputError('this is not the report.json of a fuzz run (an fpr or search report?): compare reads fuzz reports', { file });
  schema ??= buildSchema();
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${keyPath(i.path)}: ${i.message}`);
    const more = parsed.error.issues.length > 5 ? ` (and ${parsed.error.issues.length - 5} more)` : '';
    throw new InputError(`not a readable farma-fuzz report: ${issues.join('; ')}${more}`, { file });
  }
  return value as ReportData;
}
