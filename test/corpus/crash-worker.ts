/**
 * Child process for regressions.test.ts: takes the corpus lock, starts an atomic write of
 * garbage, and is SIGKILLed as soon as the temp file exists (before any rename).
 * Usage: node --import tsx crash-worker.ts <file>
 */
import lockfile from 'proper-lockfile';
import writeFileAtomic from 'write-file-atomic';

const file = process.argv[2];
if (file === undefined) throw new Error('usage: <file>');
await lockfile.lock(file, { stale: 2_000 });
await writeFileAtomic(file, 'GARBAGE THAT MUST NEVER LAND\n'.repeat(1000), {
  tmpfileCreated: () => {
    process.kill(process.pid, 'SIGKILL');
  },
});
