/**
 * Calibration glue for `fpr` and `npm run calibrate`: the bundled real sets plus the
 * templates give the calibration of the natural `benign` mix (docs/calibration.md).
 */
import type { MemoryEntry } from '../domain/entry.js';
import { loadRealBenignSets } from '../corpus/benign-sets.js';
import { calibrationTemplates } from '../../generators/benign.js';
import { calibrate, serializeCalibration, type Calibration } from '../../generators/calibration/index.js';

/** Calibrates on the given real sets (name + entries) and this checkout's templates. */
export function calibrationFor(sets: ReadonlyArray<{ name: string; entries: readonly MemoryEntry[] }>): Calibration {
  return calibrate(sets.map((s) => ({ name: s.name, entries: s.entries })), calibrationTemplates());
}

/**
 * The text `npm run calibrate` writes: the calibration on every bundled real set.
 * @throws Error naming file and line when a bundled real set cannot be read cleanly.
 */
export function freshCalibrationText(): string {
  const { sets, issues } = loadRealBenignSets();
  if (issues.length > 0) throw new Error(`real sets have problems: ${issues.map((i) => `${i.file}:${i.line}: ${i.message}`).join('; ')}`);
  return serializeCalibration(calibrationFor(sets));
}
