/**
 * Calibration glue for `fpr` and `npm run calibrate`: the bundled real sets plus the
 * templates give the calibration of the natural `benign` mix (docs/calibration.md).
 */
import { loadRealBenignSets } from '../corpus/benign-sets.js';
import { calibrationTemplates } from '../../generators/benign.js';
import { trajectoryProbe } from '../../generators/benign-trajectory.js';
import { calibrate, serializeCalibration, type Calibration } from '../../generators/calibration/index.js';
import { cachedCalibration, calibrationCacheDir, type CalibrationInputSet } from './calibration-cache.js';

let templates: ReturnType<typeof calibrationTemplates> | undefined;

/**
 * Calibrates on the given real sets (name, profile domain, entries with their episode labels) and
 * this checkout's templates; the trajectory repeat probabilities are solved on generated
 * trajectories (`trajectoryProbe`). About a second per call, so the result is kept in the
 * calibration cache (`calibration-cache.ts`, keyed by the sets' content and the code) unless
 * `cacheDir` is `false`; a hit gives the same calibration the computation would.
 */
export function calibrationFor(sets: readonly CalibrationInputSet[], options: { cacheDir?: string | false } = {}): Calibration {
  const compute = (): Calibration => {
    // The templates' kinds do not depend on the real sets: measured once per process (leave-one-source-out calibrates many times).
    templates ??= calibrationTemplates();
    return calibrate(
      sets.map((s) => ({ name: s.name, ...(s.domain !== undefined ? { domain: s.domain } : {}), entries: s.entries })),
      templates,
      { probe: trajectoryProbe },
    );
  };
  const dir = options.cacheDir === false ? undefined : (options.cacheDir ?? calibrationCacheDir());
  return cachedCalibration(sets, compute, dir);
}

/**
 * The text `npm run calibrate` writes: the calibration on every bundled real set, always
 * computed (never read from the cache: `calibrate --check` compares it with the file).
 * @throws Error naming file and line when a bundled real set cannot be read cleanly.
 */
export function freshCalibrationText(): string {
  const { sets, issues } = loadRealBenignSets();
  if (issues.length > 0) throw new Error(`real sets have problems: ${issues.map((i) => `${i.file}:${i.line}: ${i.message}`).join('; ')}`);
  return serializeCalibration(calibrationFor(sets, { cacheDir: false }));
}
