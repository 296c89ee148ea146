/** src/agents and src/eval never import generators or guards: attacks and guards arrive as parameters. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const ALLOWED = ['src/domain/', 'src/memory/', 'src/metrics/', 'src/llm/', 'src/agents/', 'src/eval/'];

describe('src/agents and src/eval import boundaries', () => {
  for (const dir of ['src/agents', 'src/eval']) {
    it(`${dir} imports only domain, memory, metrics, llm, agents, eval and packages`, () => {
      const names = readdirSync(path.join(ROOT, dir)).filter((n) => n.endsWith('.ts'));
      expect(names.length).toBeGreaterThan(3);
      for (const name of names) {
        const text = readFileSync(path.join(ROOT, dir, name), 'utf8');
        for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/g)) {
          const spec = m[1]!;
          if (!spec.startsWith('.')) {
            expect(spec, `${dir}/${name}`).not.toBe('openai');
            continue;
          }
          const t = path.relative(ROOT, path.resolve(ROOT, dir, spec)).split(path.sep).join('/');
          expect(ALLOWED.some((a) => t.startsWith(a)), `${dir}/${name} imports ${spec}`).toBe(true);
        }
      }
    });
  }
});
