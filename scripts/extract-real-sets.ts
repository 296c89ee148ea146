/**
 * `npm run extract-real-sets`: rebuilds each extracted real set's `entries.jsonl` from its raw
 * snapshot in `corpora/benign/<dir>/` (src/corpus/real-sets.ts, docs/calibration.md).
 * Deterministic: a second run rewrites every file byte for byte.
 *
 *   npm run extract-real-sets              # write every entries.jsonl
 *   npm run extract-real-sets -- --check   # exit 1 when a checked-in file differs from a fresh extraction
 *
 * Prints, per set, the entries kept by trace type, and the texts dropped as repeats or as copies
 * of a bundled few-shot exemplar. After a change, run `npm run calibrate` too.
 * Exit codes: 0 written or up to date; 1 `--check` found a difference; 2 bad input.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../src/corpus/atomic.js';
import { REAL_SET_ENTRIES_FILE, bundledExemplarTest, extractRealSet, realSetDir } from '../src/corpus/benign-sets.js';
import { REAL_SET_SPECS, serializeEntries } from '../src/corpus/real-sets.js';

async function main(argv: string[]): Promise<number> {
  const unknown = argv.filter((a) => a !== '--check');
  if (unknown.length > 0) {
    process.stderr.write(`extract-real-sets: unknown argument ${JSON.stringify(unknown[0])} (only --check)\n`);
    return 2;
  }
  const check = argv.includes('--check');
  const isExemplar = bundledExemplarTest();
  let differs = 0;
  for (const spec of REAL_SET_SPECS) {
    const dir = realSetDir(spec);
    const out = extractRealSet(spec, dir, isExemplar);
    if (out.issues.length > 0) {
      for (const i of out.issues) process.stderr.write(`${i.file}:${i.line}: ${i.message}\n`);
      return 2;
    }
    const text = serializeEntries(out.entries);
    const file = path.join(dir, REAL_SET_ENTRIES_FILE);
    const byType = new Map<string, number>();
    for (const e of out.entries) byType.set(e.traceType, (byType.get(e.traceType) ?? 0) + 1);
    const counts = [...byType.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([t, n]) => `${n} ${t}`).join(', ');
    if (check) {
      let current = '';
      try {
        current = readFileSync(file, 'utf8');
      } catch {
        current = '';
      }
      if (current !== text) {
        differs += 1;
        process.stderr.write(`${file} differs from a fresh extraction: run \`npm run extract-real-sets\` (never edit it by hand)\n`);
      } else process.stdout.write(`${spec.name}: ${out.entries.length} entries (${counts}) up to date\n`);
      continue;
    }
    await writeFileAtomic(file, text);
    process.stdout.write(`${spec.name}: wrote ${file}: ${out.entries.length} entries (${counts})\n`);
  }
  return differs > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`extract-real-sets: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  },
);
