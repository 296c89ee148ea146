import { describe, expect, it } from 'vitest';
import { createProgress } from '../../src/cli/progress.js';

/** A stream that is not a terminal (a CI log) and keeps what is written to it. */
function logStream(): { stream: NodeJS.WriteStream; lines: () => string[] } {
  let text = '';
  const stream = { isTTY: false, write: (s: string) => ((text += s), true) } as unknown as NodeJS.WriteStream;
  return { stream, lines: () => text.split('\n').filter((l) => l !== '') };
}

describe('progress on a stream that is not a terminal', () => {
  it('writes a line at each tenth of a phase that logs nothing, and none at the end', () => {
    const { stream, lines } = logStream();
    const p = createProgress(true, stream);
    p.start(200, 'FPR of sentinel on benign traces');
    for (let done = 1; done <= 200; done++) p.update(done);
    p.stop();
    expect(lines()[0]).toBe('… FPR of sentinel on benign traces (200 cases)');
    expect(lines().slice(1)).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90].map((pc) => `… ${pc}% (${pc * 2}/200 cases)`));
  });

  it('counts jumps of several tenths once, at the tenth reached', () => {
    const { stream, lines } = logStream();
    const p = createProgress(true, stream);
    p.start(1000, 'loso');
    p.update(350);
    p.update(360);
    p.update(990);
    expect(lines().slice(1)).toEqual(['… 30% (350/1000 cases)', '… 90% (990/1000 cases)']);
  });

  it('stays quiet at a tenth when a log line (a finished cell) came since the last one', () => {
    const { stream, lines } = logStream();
    const p = createProgress(true, stream);
    p.start(100, 'sentinel: 2 cells');
    p.update(10);
    p.log('✓ ehr/seed');
    p.update(20);
    p.update(30);
    expect(lines()).toEqual(['… sentinel: 2 cells (100 cases)', '… 10% (10/100 cases)', '✓ ehr/seed', '… 30% (30/100 cases)']);
  });

  it('starts counting again with each phase', () => {
    const { stream, lines } = logStream();
    const p = createProgress(true, stream);
    p.start(10, 'a');
    p.update(10);
    p.start(10, 'b');
    p.update(5);
    expect(lines()).toEqual(['… a (10 cases)', '… b (10 cases)', '… 50% (5/10 cases)']);
  });

  it('writes nothing with --quiet', () => {
    const { stream, lines } = logStream();
    const p = createProgress(false, stream);
    p.start(10, 'a');
    p.update(5);
    p.log('x');
    expect(lines()).toEqual([]);
  });
});
