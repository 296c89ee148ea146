/**
 * The checked-in calibration of the natural `benign` mix (`weights.json`, written by
 * `npm run calibrate`, never by hand; docs/calibration.md). Loaded once and validated.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { TemplateError } from '../../src/domain/errors.js';
import { packagePath } from '../../src/domain/package-root.js';
import { BENIGN_KINDS, type BenignKind } from './features.js';
import type { Calibration } from './calibrate.js';

export { calibrate, serializeCalibration,    } from './calibrate.js';
export { HISTORY_ENTRIES } from './calibrate.js';
export type { Calibration, CalibrationTemplate } from './calibrate.js';
export { addNearRepeat, addStructure, binHigh, binLow, contentWords, entityTokens, entryKind, isEntityFree, isEntityReframe, SHORT_WORDS, lexicalOverlap, sequenceOverlap, zeroNearRepeats, zeroStructure, SEQUENCE_BINS, similarityBin } from './features.js';
export type { BenignKind, NearRepeatCounts, StructureCounts } from './features.js';

/** `<package>/generators/calibration/weights.json` (shipped with the package, read from it when installed). */
export const CALIBRATION_FILE = packagePath('generators', 'calibration', 'weights.json');

const counts = { n: z.number().int().min(0), ownEligible: z.number().int().min(0), ownRepeats: z.number().int().min(0), otherEligible: z.number().int().min(0), otherRepeats: z.number().int().min(0) };
const rate = z.number().min(0).max(1);
const structure = z.object({ n: z.number().int().min(0), cells: z.record(z.string().regex(/^\d+:\d+$/), z.number().int().min(0)), similarity: z.array(z.number().int().min(0)), sequence: z.array(z.number().int().min(0)), members: z.number().int().min(0), ownMembers: z.number().int().min(0), reframes: z.number().int().min(0), shortWords: z.array(z.number().int().min(0)), entityFree: z.number().int().min(0), groupMembers: z.number().int().min(0), indirect: z.number().int().min(0) });
const summary = z.object({ alone: rate, win: rate, tie: rate, lose: rate, similarity: z.object({ p25: rate, p50: rate, p75: rate }), sequence: z.object({ p25: rate, p50: rate, p75: rate }), ownShare: rate, own: rate, other: rate, reframe: rate, short: rate, entityFree: rate, indirect: rate });
const groups = z.record(z.string().regex(/^\d+:\d+$/), rate);
const profile = { ...counts, own: rate, other: rate, episodes: z.number().int().min(0), episodeLength: z.array(rate).min(1), structure, groups, similarity: z.array(rate).min(1), sequence: z.array(rate).min(1), ownShare: rate, reframe: rate, short: z.array(rate), entityFree: rate, indirect: rate };
const trajectory = z.object({
  historyEntries: z.number().int().min(0),
  nearRepeatOverlap: rate,
  pooled: z.object(profile),
  profiles: z.record(z.string(), z.object({ ...profile, sources: z.array(z.string()) })),
  domains: z.record(z.string(), z.object({ profile: z.string(), episodeLength: z.array(rate).min(1), groups, similarity: z.array(rate).min(1), sequence: z.array(rate).min(1), ownShare: rate, reframe: rate, short: z.array(rate), entityFree: rate, indirect: rate, target: summary, generated: summary })),
});
const kindRecord = z.object(Object.fromEntries(BENIGN_KINDS.map((k) => [k, z.number().min(0)])) as Record<BenignKind, z.ZodNumber>);
const schema = z.object({
  schema: z.literal(1),
  method: z.string(),
  sources: z.array(z.object({ name: z.string(), n: z.number().int().min(0), kinds: kindRecord, traceTypes: z.record(z.string(), z.number()), length: z.object({ p50: z.number(), p90: z.number(), max: z.number() }), episodes: z.number().int().min(0), nearRepeats: z.object(counts), structure })),
  pooled: z.object({ n: z.number().int(), vocabularyBearing: z.number().int(), length: z.object({ p10: z.number(), p50: z.number(), p90: z.number(), mean: z.number(), max: z.number() }) }),
  kindRates: kindRecord,
  traceTypeShares: z.record(z.string(), z.number().min(0).max(1)),
  longReflection: z.object({ minChars: z.number().int().positive(), maxChars: z.number().int().positive() }),
  templateKinds: z.record(z.string(), z.enum(BENIGN_KINDS)),
  templateWeights: z.record(z.string(), z.record(z.string(), z.number().int().positive())),
  notes: z.array(z.string()),
  trajectory,
});

/**
 * Parses and validates a calibration file's text.
 * @throws TemplateError naming the file and the first bad key.
 */
export function parseCalibration(text: string, file = CALIBRATION_FILE): Calibration {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    throw new TemplateError(`${file}: not valid JSON (${(cause as Error).message}); run \`npm run calibrate\``, { cause });
  }
  const r = schema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new TemplateError(`${file}: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid'}; run \`npm run calibrate\``);
  }
  return r.data as Calibration;
}

let cached: Calibration | undefined;
/**
 * The checked-in calibration, loaded once per process.
 * @throws TemplateError when the file is missing or invalid.
 */
export function defaultCalibration(): Calibration {
  if (cached) return cached;
  let text: string;
  try {
    text = readFileSync(CALIBRATION_FILE, 'utf8');
  } catch (cause) {
    throw new TemplateError(`${CALIBRATION_FILE}: cannot read the calibration (${(cause as Error).message}); run \`npm run calibrate\``, { cause });
  }
  cached = parseCalibration(text);
  return cached;
}
