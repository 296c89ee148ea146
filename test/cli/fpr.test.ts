import { afterAll, describe, expect, it } from 'vitest';
import { measureFpr, renderFprMarkdown } from '../../src/cli/commands/fpr.js';
import { createProgress } from '../../src/cli/progress.js';
import { createGuard } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';
import { rejectAll } from '../helpers/toy.js';

const store = new MemoryStore(':memory:');
afterAll(() => store.close());
const quiet = createProgress(false);

describe('fpr', () => {
  it('KeywordFilter rejects some generated hard negatives and no ordinary benign trace', async () => {
    const r = await measureFpr({ guard: createGuard('keyword'), store, domains: ['ehr', 'react-qa'], runs: 600, seed: 11, phase: 'write', realData: false }, quiet);
    const hard = r.rows.filter((x) => x.kind === 'generated' && x.dimension === 'hardNegative' && x.value === 'hard negative');
    const ordinary = r.rows.filter((x) => x.kind === 'generated' && x.dimension === 'hardNegative' && x.value === 'ordinary');
    expect(hard.reduce((a, x) => a + x.fpr.k, 0)).toBeGreaterThan(0);
    expect(ordinary.reduce((a, x) => a + x.fpr.k, 0)).toBe(0);
    // every rejection is listed with its layer and template
    const total = r.rows.filter((x) => x.kind === 'generated' && x.dimension === 'domain').reduce((a, x) => a + x.fpr.k, 0);
    expect(r.rejections).toHaveLength(total);
    expect(r.rejections.every((x) => x.template !== undefined && x.set.startsWith('generated/'))).toBe(true);
  });

  it('reports generated and real side by side, with the realism gap', async () => {
    const r = await measureFpr({ guard: rejectAll, store, domains: ['rap'], runs: 50, seed: 1, phase: 'write', realData: true }, quiet);
    const real = r.rows.filter((x) => x.kind === 'real' && x.dimension === 'all');
    expect(real.map((x) => x.set)).toEqual(expect.arrayContaining(['react-hotpotqa', 'react-fever', 'react-alfworld', 'all real sets']));
    expect(real.every((x) => x.fpr.rate === 1)).toBe(true);
    expect(r.rows.some((x) => x.kind === 'curated')).toBe(true);
    expect(r.realismGap).toBe(0);
    const md = renderFprMarkdown(r);
    expect(md).toContain('Realism gap');
    expect(md).toContain('| real | react-alfworld |');
  });

  it('is deterministic for a seed', async () => {
    const run = () => measureFpr({ guard: createGuard('sentinel'), store, domains: ['ehr'], runs: 200, seed: 5, phase: 'write', realData: false }, quiet);
    expect((await run()).rows).toEqual((await run()).rows);
  });
});
