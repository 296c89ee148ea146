/**
 * `farma-fuzz merge-reports DIR…`: merges the shard blobs that `fuzz --shard i/n` wrote into
 * one report (`report.md`, `report.json`, `report.html`, JUnit when asked) and grows one
 * corpus, as the unsharded run with the same seed would have (see `src/report/merge.ts`).
 * The exit code follows the same rules as `fuzz` (`exit-verdict.ts`), with the gate the
 * shards were run with.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { InputError, UsageError } from '../../domain/errors.js';
import { isShardBlobName, mergeShardBlobs, type ShardBlob } from '../../report/merge.js';
import { reportsDir, writableDir, writableFile } from '../context.js';
import { corpusOption } from '../options.js';
import { plural } from '../../domain/plural.js';
import { readReport } from '../report-input.js';

/** Blob files under each path (a blob file itself, or a folder searched up to 4 levels deep), sorted. */
function findShardBlobs(paths: readonly string[]): string[] {
  const found = new Set<string>();
  const walk = (dir: string, depth: number): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const st = statSync(full);
      if (st.isDirectory() && depth < 4) walk(full, depth + 1);
      else if (st.isFile() && isShardBlobName(name)) found.add(full);
    }
  };
  for (const p of paths) {
    const abs = path.resolve(p);
    let st;
    try {
      st = statSync(abs);
    } catch {
      throw new InputError(`merge-reports: ${p}: no such file or folder`, { file: abs });
    }
    if (st.isDirectory()) walk(abs, 0);
    else if (isShardBlobName(path.basename(abs))) found.add(abs);
    else throw new InputError(`merge-reports: ${p}: not a shard blob (farma-fuzz-shard-<i>-of-<n>.json) nor a folder`, { file: abs });
  }
  return [...found].sort();
}

function readBlob(file: string): ShardBlob {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ShardBlob;
  } catch (cause) {
    throw new InputError(`${file}: cannot read the shard blob (${cause instanceof Error ? cause.message : String(cause)})`, { file }, { cause });
  }
}

/** Registers `merge-reports` on the program. */
export function registerMergeReportsCommand(program: Command, exit: (code: number) => void): Command {
  return program
    .command('merge-reports')
    .description('merge the outputs of fuzz --shard i/n runs into one report (md, json, html, JUnit) and one corpus, as the unsharded run would have made them')
    .argument('<dirs...>', 'shard output folders or blob files (searched for farma-fuzz-shard-<i>-of-<n>.json, 4 levels deep)')
    .option('-o, --out <dir>', 'report directory (default: reports/<date>-<time>-<guard>-<seed>-merged)')
    .addOption(corpusOption('regression corpus to grow with the merged counterexamples'))
    .option('--no-corpus', 'do not grow the regression corpus')
    .option('--junit <file>', 'write JUnit XML of the merged run')
    .option('--html [file]', 'write the HTML report (default: report.html in the report directory)')
    .option('--no-html', 'do not write the HTML report')
    .addOption(new Option('--require-invariants', 'with a gate, also fail (exit 1) when any invariant fails'))
    .option('--baseline <report>', 'an earlier report.json (or its folder) to compare the merged run with, as fuzz --baseline does')
    .option('--allow-config-diff', 'with --baseline: compare even when the configurations differ; the differences are listed')
    .action(async (dirs: string[], opts: Record<string, string | boolean | undefined>) => {
      // A missing or malformed baseline fails first (exit 3), before any merging.
      const baseline = typeof opts.baseline === 'string' ? { ...(await readReport(opts.baseline, '--baseline')), allowConfigDiff: opts.allowConfigDiff === true } : undefined;
      if (opts.allowConfigDiff === true && !baseline) throw new UsageError('--allow-config-diff needs --baseline <report.json>');
      const files = findShardBlobs(dirs);
      const merged = mergeShardBlobs(files.map((file) => ({ file: path.relative(process.cwd(), file) || file, blob: readBlob(file) })));
      if (!merged.ok) throw new InputError(`merge-reports: ${merged.message}`);
      if (typeof opts.out === 'string' && opts.out.trim() === '') throw new UsageError('--out needs a directory name');
      const s = merged.settings;
      const stamp = s.generatedAt.replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
      const outDir = writableDir('--out', typeof opts.out === 'string' ? opts.out : path.join(reportsDir(), `${stamp}-${s.guardId.replace(/[^\w.-]+/g, '_').slice(0, 40)}-${s.seed}-merged`));
      const corpusDir = typeof opts.corpus === 'string' ? opts.corpus : undefined;
      if (corpusDir !== undefined) writableDir('--corpus', corpusDir);
      if (typeof opts.junit === 'string') writableFile('--junit', opts.junit);
      if (typeof opts.html === 'string') writableFile('--html', opts.html);
      const [{ finishFuzz }, { writeRunOutputs }] = await Promise.all([import('../../campaign/fuzz.js'), import('../run-outputs.js')]);
      const { runsPerCell: _r, seed: _s, ...settings } = s;
      const result = await finishFuzz({ ...settings, outDir, ...(corpusDir !== undefined ? { corpusDir } : {}) }, merged.parts, { phases: [], startedAtMs: 0 });
      process.stderr.write(`farma-fuzz: merged ${plural(merged.shards, 'shard')} of guard ${s.guardId}, seed ${s.seed}, ${plural(s.runsPerCell, 'run')} per cell\n`);
      const verdict = await writeRunOutputs(result, {
        ...(opts.html !== undefined ? { html: opts.html as string | boolean } : {}),
        ...(typeof opts.junit === 'string' ? { junit: opts.junit } : {}),
        thresholds: s.thresholds ?? {},
        requireInvariants: opts.requireInvariants === true,
        ...(baseline ? { baseline } : {}),
      });
      exit(verdict.code);
    });
}
