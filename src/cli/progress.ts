/**
 * Progress on long runs: a cli-progress bar on stderr when it is a terminal, otherwise one
 * line per finished step and, for a phase with no such line, one at each tenth of its cases
 * (`… 30% (198000/660000 cases)`), so CI logs stay readable. Never writes to stdout.
 */
import cliProgress from 'cli-progress';
import { silentProgress, type Progress } from '../campaign/progress.js';
import { plural } from '../domain/plural.js';
import { paint } from './colour.js';

/** The progress of a CLI run on `stream`; `silentProgress` when not `enabled` (`--quiet`). */
export function createProgress(enabled: boolean, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!enabled) return silentProgress;
  const colour = paint(stream);
  if (!stream.isTTY) {
    // A phase that logs nothing for a long while (the FPR estimate, the leave-one-source-out
    // check) still shows it is alive: a line at each tenth of its cases, unless a log line
    // (a finished cell) was written since the last one.
    let total = 0;
    let tenth = 0;
    let quiet = true;
    return {
      start(t, label) {
        total = t;
        tenth = 0;
        quiet = true;
        stream.write(`… ${label} (${plural(t, 'case')})\n`);
      },
      update(done) {
        if (total <= 0) return;
        const now = Math.min(10, Math.floor((done * 10) / total));
        if (now <= tenth) return;
        tenth = now;
        if (quiet && now < 10) stream.write(`… ${now * 10}% (${done}/${plural(total, 'case')})\n`);
        quiet = true;
      },
      log(line) {
        quiet = false;
        stream.write(`${colour(line)}\n`);
      },
      stop() {},
    };
  }
  const multi = new cliProgress.MultiBar(
    { stream, format: ' {bar} {percentage}% | {value}/{total} cases | {label}', hideCursor: true, clearOnComplete: true, etaBuffer: 200 },
    cliProgress.Presets.shades_classic,
  );
  let bar: cliProgress.SingleBar | undefined;
  let last = 0;
  return {
    start(total, label) {
      bar = multi.create(total, 0, { label });
    },
    update(done, label) {
      const now = Date.now();
      if (now - last < 80) return;
      last = now;
      bar?.update(done, label !== undefined ? { label } : {});
    },
    log(line) {
      multi.log(`${colour(line)}\n`);
    },
    stop() {
      multi.stop();
    },
  };
}
