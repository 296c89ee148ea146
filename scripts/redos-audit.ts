/**
 * `npm run redos-audit`: runs recheck (npm `recheck`) on every regex the guards use
 * (scripts/redos-regexes.ts) and writes its verdicts to test/robustness/redos-verdicts.json.
 * The ReDoS test reads that file instead of running the checker, so its answer does not
 * depend on how busy the machine is: it checks that the file covers exactly the current
 * regexes and that every verdict is `safe`. Run this after adding or changing a guard regex,
 * and commit the file.
 *
 * recheck decides most regexes by its automaton checker; the others by its fuzzer, which
 * has time limits. A regex that recheck could not decide within `timeout` is retried once
 * with four times the limit. For a `vulnerable` verdict the attack string is also timed on
 * V8 and the time written down, to help decide how to rewrite the regex.
 *
 * Flags: `--timeout ms` (per regex, default 60000), `--only-changed` (keep the verdicts of
 * regexes already in the file, check only the new ones).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { check, type Diagnostics } from 'recheck';
import writeFileAtomic from 'write-file-atomic';
import { collectAuditedRegexes } from './redos-regexes.js';

/** Where the verdicts are checked in. */
export const VERDICT_FILE = path.resolve(import.meta.dirname, '..', 'test', 'robustness', 'redos-verdicts.json');

/** One recorded verdict. */
export interface RecordedVerdict {
  key: string;
  source: string;
  flags: string;
  where: string[];
  status: Diagnostics['status'];
  checker?: string;
  complexity?: string;
  attack?: { pattern: string; v8Ms: number };
  error?: string;
}

const argv = process.argv.slice(2);
const timeoutArg = argv.indexOf('--timeout');
const TIMEOUT_MS = timeoutArg >= 0 ? Number(argv[timeoutArg + 1]) : 60_000;
if (!(TIMEOUT_MS > 0)) throw new Error(`--timeout must be a positive number of ms, got ${argv[timeoutArg + 1]}`);
const onlyChanged = argv.includes('--only-changed');

function v8Ms(source: string, flags: string, attack: string): number {
  const re = new RegExp(source, flags.includes('g') ? flags : `${flags}g`);
  const t0 = performance.now();
  for (const _ of attack.matchAll(re)) {
    // drain every match
  }
  return performance.now() - t0;
}

async function verdictOf(r: { key: string; source: string; flags: string; where: string[] }): Promise<RecordedVerdict> {
  let d = await check(r.source, r.flags, { randomSeed: 7, timeout: TIMEOUT_MS });
  if (d.status === 'unknown') d = await check(r.source, r.flags, { randomSeed: 7, timeout: TIMEOUT_MS * 4 });
  const base = { key: r.key, source: r.source, flags: r.flags, where: r.where, status: d.status };
  if (d.status === 'safe') return { ...base, checker: d.checker, complexity: d.complexity.summary };
  if (d.status === 'vulnerable') return { ...base, checker: d.checker, complexity: d.complexity.summary, attack: { pattern: d.attack.pattern, v8Ms: Math.round(v8Ms(r.source, r.flags, d.attack.string)) } };
  return { ...base, error: `${d.error.kind}${'message' in d.error ? `: ${String(d.error.message)}` : ''}` };
}

async function main(): Promise<void> {
  const regexes = collectAuditedRegexes();
  const previous = new Map<string, RecordedVerdict>();
  if (onlyChanged && existsSync(VERDICT_FILE)) {
    for (const v of (JSON.parse(readFileSync(VERDICT_FILE, 'utf8')) as { verdicts: RecordedVerdict[] }).verdicts) previous.set(v.key, v);
  }
  const out: RecordedVerdict[] = [];
  // Two checks at a time: the machine has two cores.
  for (let i = 0; i < regexes.length; i += 2) {
    const batch = regexes.slice(i, i + 2);
    out.push(
      ...(await Promise.all(
        batch.map(async (r) => {
          const kept = previous.get(r.key);
          const v = kept ? { ...kept, where: r.where } : await verdictOf(r);
          process.stderr.write(`${v.status.padEnd(10)} ${r.where[0]}: /${r.source.slice(0, 60)}${r.source.length > 60 ? '…' : ''}/${r.flags}\n`);
          return v;
        }),
      )),
    );
  }
  const recheckVersion = (JSON.parse(readFileSync(path.resolve(import.meta.dirname, '..', 'node_modules', 'recheck', 'package.json'), 'utf8')) as { version: string }).version;
  const doc = { generatedBy: 'npm run redos-audit', recheck: recheckVersion, params: { randomSeed: 7, timeoutMs: TIMEOUT_MS }, verdicts: out };
  await writeFileAtomic(VERDICT_FILE, `${JSON.stringify(doc, null, 2)}\n`);
  const notSafe = out.filter((v) => v.status !== 'safe');
  process.stderr.write(`${out.length} regexes, ${out.length - notSafe.length} safe, ${notSafe.length} not safe; wrote ${path.relative(process.cwd(), VERDICT_FILE)}\n`);
  for (const v of notSafe) process.stderr.write(`  NOT SAFE ${v.status} ${v.where.join(', ')}: ${v.complexity ?? v.error ?? ''}${v.attack ? `, attack ${v.attack.pattern} (${v.attack.v8Ms} ms on V8)` : ''}\n`);
  if (notSafe.length > 0) process.exitCode = 1;
}

await main();
