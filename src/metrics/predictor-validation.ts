/**
 * Validation of two FPR predictors on held-out real sets (docs/calibration.md, "Which estimate to
 * trust"): for every set, the *plain* predictor (the natural mix calibrated on every other set,
 * i.e. the leave-one-source-out estimate) and the *matched* predictor (the natural mix calibrated on
 * that set's text alone, never a verdict) are each compared with the FPR measured on the set.
 * A predictor is within sampling noise on a set when its gap is at most the set's Wilson 95%
 * half-width. The one the validation backs is the one within noise on more sets, then the one with
 * the smaller mean gap; on a full tie, plain (the simpler one).
 */

/** One held-out set: gaps |estimate − real| and the set's Wilson half-width, all in [0,1]. */
export interface ValidationInput {
  set: string;
  halfWidth: number;
  plainGap: number;
  matchedGap: number;
}

/** How one predictor did over the held-out sets. Gaps in [0,1]. */
export interface PredictorScore {
  /** Mean of the per-set gaps. */
  meanGap: number;
  /** Largest per-set gap. */
  maxGap: number;
  /**
   * Largest per-set gap beyond that set's own sampling noise, max(0, gap − half-width): the
   * error of the predictor itself that the held-out sets showed (a small set's gap inside its
   * own wide interval is noise, not error). What a user's export gap is read against.
   */
  maxExcess: number;
  /** Sets on which the gap is at most the set's half-width. */
  withinNoise: number;
}

/** The outcome of `validatePredictors`. */
export interface PredictorValidation {
  /** Held-out sets compared (input order), each with both verdicts. */
  sets: Array<ValidationInput & { plainWithinNoise: boolean; matchedWithinNoise: boolean }>;
  plain: PredictorScore;
  matched: PredictorScore;
  /** The predictor the validation backs. */
  preferred: 'plain' | 'matched';
}

function score(sets: readonly ValidationInput[], gap: (s: ValidationInput) => number): PredictorScore {
  const gaps = sets.map(gap);
  return {
    meanGap: gaps.reduce((a, g) => a + g, 0) / gaps.length,
    maxGap: Math.max(...gaps),
    maxExcess: Math.max(0, ...sets.map((s, i) => (gaps[i] as number) - s.halfWidth)),
    withinNoise: sets.filter((s) => gap(s) <= s.halfWidth).length,
  };
}

/**
 * Scores the plain and the matched predictor on the same held-out sets and says which one the
 * validation backs (rule in the file comment).
 * @returns `undefined` when `sets` is empty: nothing validates either predictor.
 * @throws RangeError when a gap or half-width is not a number in [0,1].
 * @example
 * validatePredictors([{ set: 'a', halfWidth: 0.02, plainGap: 0.01, matchedGap: 0.03 }])?.preferred; // 'plain'
 */
/**
 * The rule that picks the predictor to show, with what decided it: more sets within noise
 * (`sets`), then the smaller mean gap (`mean-gap`), plain on a tie (`tie`).
 * @example preferenceOf({ withinNoise: 13, meanGap: 0.0154, maxGap: 0.115 }, { withinNoise: 14, meanGap: 0.0107, maxGap: 0.034 }) // { preferred: 'matched', by: 'sets' }
 */
export function preferenceOf(plain: PredictorScore, matched: PredictorScore): { preferred: 'plain' | 'matched'; by: 'sets' | 'mean-gap' | 'tie' } {
  if (matched.withinNoise !== plain.withinNoise) return { preferred: matched.withinNoise > plain.withinNoise ? 'matched' : 'plain', by: 'sets' };
  if (matched.meanGap !== plain.meanGap) return { preferred: matched.meanGap < plain.meanGap ? 'matched' : 'plain', by: 'mean-gap' };
  return { preferred: 'plain', by: 'tie' };
}

export function validatePredictors(sets: readonly ValidationInput[]): PredictorValidation | undefined {
  for (const s of sets) {
    for (const [k, v] of [['halfWidth', s.halfWidth], ['plainGap', s.plainGap], ['matchedGap', s.matchedGap]] as const) {
      if (!Number.isFinite(v) || v < 0 || v > 1) throw new RangeError(`validatePredictors: ${s.set}: ${k} must be in [0,1], got ${v}`);
    }
  }
  if (sets.length === 0) return undefined;
  const plain = score(sets, (s) => s.plainGap);
  const matched = score(sets, (s) => s.matchedGap);
  const preferred = preferenceOf(plain, matched).preferred;
  return {
    sets: sets.map((s) => ({ ...s, plainWithinNoise: s.plainGap <= s.halfWidth, matchedWithinNoise: s.matchedGap <= s.halfWidth })),
    plain,
    matched,
    preferred,
  };
}

/**
 * What can be said of a user's own memory given a validated predictor: its gap on the export
 * against the export's Wilson half-width, and against the half-width plus the predictor's own
 * validated error (`PredictorScore.maxExcess`: the largest gap beyond sampling noise it showed on
 * a held-out set). `outside` is said only when the gap is beyond both: a gap inside the
 * predictor's own validated error is not evidence that the memory differs. The raw largest gap is
 * not the error: a small held-out set's gap inside its own wide interval would widen the
 * allowance by its noise and let a real difference pass as "cannot say".
 * @example
 * exportVerdict(0.05, 0.01, 0.03); // 'outside'
 * exportVerdict(0.02, 0.01, 0.03); // 'within-validated-error'
 */
export function exportVerdict(gap: number, halfWidth: number, validatedError: number | undefined): 'within-noise' | 'within-validated-error' | 'outside' | 'unvalidated' {
  if (gap <= halfWidth) return 'within-noise';
  if (validatedError === undefined) return 'unvalidated';
  return gap <= halfWidth + validatedError ? 'within-validated-error' : 'outside';
}
