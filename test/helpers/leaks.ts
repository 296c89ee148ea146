/**
 * For the secret tests (test/robustness/secrets.test.ts, secret-channels.test.ts): every output of
 * a run as (where, text) pairs, and the planted markers found in them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** One output: where it went (a stream's name or a file path) and its text. */
export type Output = [where: string, text: string];

/** Every file under `dir`, recursively, as (path, UTF-8 text). Throws when `dir` does not exist. */
export function filesUnder(dir: string): Output[] {
  const out: Output[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push([p, readFileSync(p, 'utf8')]);
  }
  return out;
}

/** `"<marker name> in <where>"` for every marker (name → planted value) that some output contains; empty when none leaked. */
export function leaks(markers: Record<string, string>, outputs: readonly Output[]): string[] {
  const found: string[] = [];
  for (const [where, text] of outputs) for (const [name, m] of Object.entries(markers)) if (text.includes(m)) found.push(`${name} in ${where}`);
  return found;
}
