/**
 * examples/github-actions/fuzz-sharded.yml, run as GitHub would run it, with the matrix as a
 * loop: the workflow is parsed with `yaml`, each job runs in a fresh copy of a small project
 * (its own machine), each `run:` step goes through `bash -eo pipefail` (GitHub's default shell)
 * with the workflow's env, `${{ matrix.* }}` filled in and GITHUB_RUN_ID set to a real-sized
 * run id (above 2^32), and the artifact actions are played by copying folders
 * (upload-artifact: `path` to a store under `name`; download-artifact: every stored artifact
 * matching `pattern` to `path/<name>/`). `npx farma-fuzz` is this checkout's CLI.
 *
 * The workflow's own FUZZ_FLAGS (2000 runs of all 18 cells) would take many minutes here, so
 * each scenario sets FUZZ_FLAGS as a user would, with fewer cells and runs; every command
 * of the workflow is run as written. Checked: no step exits with an error, and the merge's
 * exit code is the gate's verdict (one gate that passes, one that fails, on the same guard).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const WORKFLOW = path.join(ROOT, 'examples', 'github-actions', 'fuzz-sharded.yml');
const RUN_ID = 19_876_543_210; // a run id of today's size: above 2^32 - 1, the top of --seed
const work = mkdtempSync(path.join(tmpdir(), 'ff-actions-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Step {
  run?: string;
  uses?: string;
  with?: Record<string, string | number>;
  if?: string;
  'continue-on-error'?: unknown;
}
interface Job {
  needs?: string[];
  strategy?: { matrix?: Record<string, Array<string | number>> };
  steps: Step[];
  'continue-on-error'?: unknown;
}
interface Workflow {
  env: Record<string, string>;
  jobs: Record<string, Job>;
}
const workflow = parse(readFileSync(WORKFLOW, 'utf8')) as Workflow;

/** Every combination of a job's matrix (one empty combination without a matrix). */
function combinations(matrix: Record<string, Array<string | number>> | undefined): Array<Record<string, string | number>> {
  let out: Array<Record<string, string | number>> = [{}];
  for (const [k, values] of Object.entries(matrix ?? {})) out = out.flatMap((c) => values.map((v) => ({ ...c, [k]: v })));
  return out;
}

/** `${{ matrix.x }}` filled in; any other expression left alone would be a test gap, so it throws. */
function expand(text: string, matrix: Record<string, string | number>): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    const m = /^matrix\.(\w+)$/.exec(expr);
    if (m && m[1]! in matrix) return String(matrix[m[1]!]);
    throw new Error(`workflow expression not handled by the test: \${{ ${expr} }}`);
  });
}

/** The project the workflow runs in: a guard module and a package.json; `npx farma-fuzz` finds this checkout's CLI in node_modules/.bin. */
function makeProject(dir: string): void {
  mkdirSync(path.join(dir, 'guards'), { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: 'my-project', version: '1.0.0', private: true }, null, 2)}\n`);
  // A guard that admits every entry: no false positive, every forgery a bypass.
  writeFileSync(path.join(dir, 'guards', 'my-guard.ts'), "export const guard = { id: 'my-guard', check: () => ({ decision: 'admit' as const, trace: [], reasons: [], elapsedUs: 0 }) };\n");
  const bin = path.join(dir, 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  const tsx = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs');
  writeFileSync(path.join(bin, 'farma-fuzz'), `#!/bin/sh\nexec "${process.execPath}" --import "file://${tsx}" "${path.join(ROOT, 'src', 'cli', 'main.ts')}" "$@"\n`);
  chmodSync(path.join(bin, 'farma-fuzz'), 0o755);
}

interface StepResult {
  job: string;
  matrix: Record<string, string | number>;
  run: string;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the whole workflow with `fuzzFlags` as FUZZ_FLAGS; returns every `run:` step's result, in order. */
function runWorkflow(name: string, fuzzFlags: string): StepResult[] {
  const base = path.join(work, name);
  const project = path.join(base, 'project');
  const artifacts = path.join(base, 'artifacts');
  makeProject(project);
  mkdirSync(artifacts);
  const results: StepResult[] = [];
  const env: NodeJS.ProcessEnv = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|GITHUB_|FARMA_)/i.test(k))), ...workflow.env, FUZZ_FLAGS: fuzzFlags, GITHUB_RUN_ID: String(RUN_ID), CI: 'true', NO_COLOR: '1' };
  for (const [jobName, job] of Object.entries(workflow.jobs)) {
    for (const matrix of combinations(job.strategy?.matrix)) {
      // A job is a machine: a fresh checkout of the project, at the same path on every machine (as GitHub's runners check out to one path).
      const machine = path.join(base, 'machine');
      rmSync(machine, { recursive: true, force: true });
      cpSync(project, machine, { recursive: true });
      for (const step of job.steps) {
        if (step.run !== undefined) {
          const command = expand(step.run, matrix);
          // `npm ci` installs the project's lock file; the test's project is already installed.
          if (command.trim() === 'npm ci') continue;
          const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', command], { cwd: machine, env, encoding: 'utf8', timeout: 300_000 });
          results.push({ job: jobName, matrix, run: command, code: r.status, stdout: r.stdout, stderr: r.stderr });
        } else if (step.uses?.startsWith('actions/upload-artifact@')) {
          const name = expand(String(step.with!.name), matrix);
          for (const p of String(step.with!.path).split('\n').map((s) => s.trim()).filter(Boolean)) {
            if (existsSync(path.join(machine, p))) cpSync(path.join(machine, p), path.join(artifacts, name, p), { recursive: true });
          }
        } else if (step.uses?.startsWith('actions/download-artifact@')) {
          const pattern = new RegExp(`^${String(step.with!.pattern).replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
          for (const name of readdirSync(artifacts).filter((n) => pattern.test(n))) {
            // Each upload kept its path relative to the machine: shard-out/ sits under the artifact.
            cpSync(path.join(artifacts, name, 'shard-out'), path.join(machine, String(step.with!.path), name), { recursive: true });
          }
        } else if (!/^actions\/(checkout|setup-node)@/.test(step.uses ?? '')) {
          throw new Error(`step not handled by the test: ${JSON.stringify(step)}`);
        }
      }
    }
  }
  return results;
}

const shardsOf = (steps: StepResult[]): StepResult[] => steps.filter((s) => s.job === 'fuzz' && s.run.includes('--shard'));
const mergeOf = (steps: StepResult[]): StepResult => steps.find((s) => s.job === 'merge' && s.run.includes('merge-reports'))!;

describe('examples/github-actions/fuzz-sharded.yml', () => {
  it('hides no failure: no continue-on-error, a gate on FPR leaves the small real sets out, the seed is brought into range', () => {
    const text = readFileSync(WORKFLOW, 'utf8');
    expect(text).not.toMatch(/^\s*continue-on-error:/m);
    for (const job of Object.values(workflow.jobs)) {
      expect(job['continue-on-error']).toBeUndefined();
      for (const step of job.steps) expect(step['continue-on-error'], JSON.stringify(step)).toBeUndefined();
    }
    const flags = workflow.env.FUZZ_FLAGS!;
    if (flags.includes('--max-fpr')) expect(flags).toContain('--no-real');
    const shardStep = workflow.jobs.fuzz!.steps.find((s) => s.run?.includes('--shard'))!;
    expect(shardStep.run).toContain('--seed $((GITHUB_RUN_ID % 4294967296))');
    expect(workflow.jobs.merge!.needs).toEqual(['fuzz']);
  });

  // Four cells, one per shard: benign cells judged by --max-fpr, forged ones that the admit-all guard lets through.
  const CELLS = '--guard ./guards/my-guard.ts --runs 25 --domain ehr,rap --family seed,benign --no-real';

  it('a gate that passes: every step exits 0 and so does the merge, though invariants fail (the gate alone decides)', () => {
    const steps = runWorkflow('pass', `${CELLS} --max-fpr 0.2`);
    expect(shardsOf(steps)).toHaveLength(4);
    for (const s of steps) expect(s.code, `${s.job} ${JSON.stringify(s.matrix)}: ${s.run}\n${s.stdout}\n${s.stderr}`).toBe(0);
    const seeds = new Set(shardsOf(steps).map((s) => /seed (\d+)/.exec(s.stderr)?.[1]));
    expect([...seeds]).toEqual([String(RUN_ID % 2 ** 32)]);
    const merge = mergeOf(steps);
    expect(merge.stdout).toMatch(/CI gate \(--max-fpr 0\.2\) passed/);
    expect(merge.stdout).toMatch(/invariants failed in 2 of 4 cells .*under a gate they do not decide the exit code/);
    expect(merge.stdout).toContain('exit 0: decided by gate pass.');
  }, 600_000);

  it('a gate that fails: every shard still exits 0, and the merge exits 1 on the gate', () => {
    const steps = runWorkflow('fail', `${CELLS} --max-fpr 0.2 --max-bypass 0.05`);
    const shards = shardsOf(steps);
    expect(shards).toHaveLength(4);
    for (const s of shards) expect(s.code, `${JSON.stringify(s.matrix)}\n${s.stdout}\n${s.stderr}`).toBe(0);
    // The shards that ran a forged cell say that their own cells fail the gate.
    expect(shards.filter((s) => /its cells alone would give exit 1, decided by gate FAIL/.test(s.stdout))).toHaveLength(2);
    const merge = mergeOf(steps);
    expect(merge.code, merge.stderr).toBe(1);
    expect(merge.stdout).toMatch(/CI gate \(--max-fpr 0\.2, --max-bypass 0\.05\) failed: 2 of 4 checks above the limit/);
    expect(merge.stdout).toContain('exit 1: decided by gate FAIL.');
    expect(steps.filter((s) => s.code !== 0).map((s) => s.run)).toEqual([merge.run]);
  }, 600_000);
});
