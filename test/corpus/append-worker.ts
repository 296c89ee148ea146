/**
 * Child process for regressions.test.ts: appends `count` records, one call each, to the
 * corpus file given on argv, so two of these race on the same file.
 * Usage: node --import tsx append-worker.ts <file> <tag> <count>
 */
import { appendRegressions } from '../../src/corpus/regressions.js';
import { sampleRecord } from './regression-fixture.js';

const [file, tag, count] = process.argv.slice(2);
if (file === undefined || tag === undefined || count === undefined) throw new Error('usage: <file> <tag> <count>');
for (let i = 0; i < Number(count); i += 1) {
  await appendRegressions(file, [sampleRecord(`${tag}-${i}`)], { waitMs: 60_000 });
}
