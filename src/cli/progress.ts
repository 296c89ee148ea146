/**
 * Progress on long runs: a cli-progress bar on stderr when it is a terminal, otherwise one
 * line per finished step (so CI logs stay readable). Never writes to stdout.
 */
import cliProgress from 'cli-progress';
import { silentProgress, type Progress } from '../campaign/progress.js';
import { plural } from '../domain/plural.js';

/** The progress of a CLI run on `stream`; `silentProgress` when not `enabled` (`--quiet`). */
export function createProgress(enabled: boolean, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!enabled) return silentProgress;
  if (!stream.isTTY) {
    return {
      start: (total, label) => stream.write(`… ${label} (${plural(total, 'case')})\n`),
      update() {},
      log: (line) => stream.write(`${line}\n`),
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
      multi.log(`${line}\n`);
    },
    stop() {
      multi.stop();
    },
  };
}
