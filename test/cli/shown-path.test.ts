import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { shownPath } from '../../src/cli/run-outputs.js';

describe('shownPath: the report folder named in the closing lines', () => {
  const cwd = path.resolve('/work/project');
  it('is relative inside the working folder', () => {
    expect(shownPath(path.join(cwd, 'reports', 'run-1'), cwd)).toBe(path.join('reports', 'run-1'));
  });
  it('is absolute outside it, never a chain of ../', () => {
    expect(shownPath(path.resolve('/tmp/run'), cwd)).toBe(path.resolve('/tmp/run'));
    expect(shownPath(path.resolve('/work/other/r'), cwd)).toBe(path.resolve('/work/other/r'));
  });
  it('is the absolute folder when it is the working folder itself', () => {
    expect(shownPath(cwd, cwd)).toBe(cwd);
  });
});
