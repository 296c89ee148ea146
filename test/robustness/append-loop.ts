/**
 * Child process for corpus-damage.test.ts: appends batches of fresh regression records to a
 * corpus file for ever, printing `appended <n>` after each batch, until it is killed.
 * Usage: node --import tsx append-loop.ts <file> <tag>
 */
import { appendRegressions } from '../../src/corpus/regressions.js';
import { sampleRecord } from '../corpus/regression-fixture.js';

const [file, tag] = process.argv.slice(2);
if (file === undefined || tag === undefined) throw new Error('usage: <file> <tag>');
for (let batch = 0; ; batch++) {
  const records = Array.from({ length: 50 }, (_, i) => sampleRecord(`${tag}-${batch}-${i}-${'x'.repeat(200)}`));
  await appendRegressions(file, records);
  process.stdout.write(`appended ${(batch + 1) * 50}\n`);
}
