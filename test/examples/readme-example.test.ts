import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

describe('README', () => {
  it('shows the vitest example exactly as the test suite runs it', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const suite = readFileSync(path.join(ROOT, 'test/examples/readme-suite.test.ts'), 'utf8');
    const body = suite.slice(suite.indexOf('// A toy guard'));
    expect(body.length).toBeGreaterThan(200);
    expect(readme).toContain(body);
  });

  it('gives the two fresh-machine commands', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('npm ci && npm run fuzz');
    expect(readme).toContain('npm ci && npm test');
  });
});

describe('README replay example', () => {
  it('names an id prefix that is in the committed SENTINEL corpus exactly once', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const prefix = /replay --guard sentinel --id (\w+)/.exec(readme)?.[1];
    expect(prefix).toBeDefined();
    const ids = readFileSync(path.join(ROOT, 'corpora/regressions/sentinel.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { id: string }).id);
    expect(ids.filter((id) => id.startsWith(prefix!))).toHaveLength(1);
  });
});
