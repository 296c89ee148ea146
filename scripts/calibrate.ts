/**
 * `npm run calibrate`: measures the bundled real benign sets and writes the calibration of
 * the natural `benign` mix to `generators/calibration/weights.json` (docs/calibration.md).
 * Deterministic: a second run rewrites the file byte for byte.
 *
 *   npm run calibrate            # write the file
 *   npm run calibrate -- --check # exit 1 when the checked-in file differs from a fresh run
 *
 * Exit codes: 0 written or up to date; 1 `--check` found a difference; 2 bad input.
 */
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../src/corpus/atomic.js';
import { freshCalibrationText } from '../src/campaign/calibration.js';
import { CALIBRATION_FILE } from '../generators/calibration/index.js';

async function main(argv: string[]): Promise<number> {
  const unknown = argv.filter((a) => a !== '--check');
  if (unknown.length > 0) {
    process.stderr.write(`calibrate: unknown argument ${JSON.stringify(unknown[0])} (only --check)\n`);
    return 2;
  }
  const text = freshCalibrationText();
  if (argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(CALIBRATION_FILE, 'utf8');
    } catch {
      current = '';
    }
    if (current === text) {
      process.stdout.write(`${CALIBRATION_FILE} is up to date\n`);
      return 0;
    }
    process.stderr.write(`${CALIBRATION_FILE} differs from a fresh calibration: run \`npm run calibrate\` (never edit it by hand)\n`);
    return 1;
  }
  await writeFileAtomic(CALIBRATION_FILE, text);
  process.stdout.write(`wrote ${CALIBRATION_FILE}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`calibrate: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  },
);
