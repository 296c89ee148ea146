/**
 * Calibration glue for `fpr` and `npm run calibrate`: the bundled real sets plus the
 * templates give the calibration of the natural `benign` mix (docs/calibration.md).
 */
import type { MemoryEntry } from '../domain/entry.js';
import { loadRealBenignSets } from '../corpus/benign-sets.js';
import { calibrationTemplates } from '../../generators/benign.js';
import { trajectoryProbe } from '../../generators/benign-trajectory.js';
import { calibrate, serializeCalibration, type Calibration } from '../../generators/calibration/index.js';

let templates: ReturnType<typeof calibrationTemplates> | undefined;

/**
 * Calibrates on the given real sets (name, profile domain, entries with their episode labels) and
 * this checkout's templates; the trajectory repeat probabilities are solved on generated
 * trajectories (`trajectoryProbe`).
 */
export function calibrationFor(sets: ReadonlyArray<{ name: string; domain?: string; entries: readonly MemoryEntry[] }>): Calibration {
  // The templates' kinds do not depend on the real sets: measured once per process (leave-one-source-out calibrates many times).
  templates ??= calibrationTemplates();
  return calibrate(
    sets.map((s) => ({ name: s.name, ...(s.domain !== undefined ? { domain: s.domain } : {}), entries: s.entries })),
    templates,
    { probe: trajectoryProbe },
  );
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
