/**
 * The checked-in calibration (`generators/calibration/weights.json`) is exactly what
 * `npm run calibrate` computes from the bundled real sets and the templates: the test
 * recomputes it and compares byte for byte, so a hand edit (or a template change without a
 * recalibration) fails here.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshCalibrationText } from '../../src/campaign/calibration.js';
import { CALIBRATION_FILE, calibrate, entryKind, parseCalibration, serializeCalibration } from '../../generators/calibration/index.js';
import { calibrationTemplates } from '../../generators/benign.js';
import { TemplateError } from '../../src/domain/index.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

describe('generators/calibration/weights.json', () => {
  it('is byte for byte what a fresh calibration writes (never edited by hand)', () => {
    expect(readFileSync(CALIBRATION_FILE, 'utf8')).toBe(freshCalibrationText());
  });

  it('a hand edit is detected: one changed weight no longer matches the recomputation', () => {
    const text = readFileSync(CALIBRATION_FILE, 'utf8');
    const edited = text.replace(/"(ehr\/benign\/thought-prose)": (\d+)/, (_m, id: string, w: string) => `"${id}": ${Number(w) + 1}`);
    expect(edited).not.toBe(text);
    expect(edited).not.toBe(freshCalibrationText());
  });

  it('`npm run calibrate -- --check` exits 0 on the checked-in file', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/calibrate.ts', '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(out).toMatch(/up to date/);
  });

  it('weights sum to about one million per domain and every template has one', () => {
    const c = parseCalibration(readFileSync(CALIBRATION_FILE, 'utf8'));
    for (const [domain, w] of Object.entries(c.templateWeights)) {
      const sum = Object.values(w).reduce((a, b) => a + b, 0);
      expect(Math.abs(sum - 1e6), domain).toBeLessThan(200);
    }
    expect(Object.keys(c.templateKinds).sort()).toEqual(calibrationTemplates().map((t) => t.id));
    const rates = Object.values(c.kindRates).reduce((a, b) => a + b, 0);
    expect(Math.abs(rates - 1)).toBeLessThan(1e-5);
  });

  it('a damaged file is a TemplateError naming the file and the key', () => {
    expect(() => parseCalibration('{', 'w.json')).toThrow(TemplateError);
    expect(() => parseCalibration('{"schema": 2}', 'w.json')).toThrow(/w\.json: schema/);
  });
});

describe('calibrate', () => {
  const templates = calibrationTemplates();
  const source = (name: string, texts: string[]) => ({ name, entries: texts.map((content) => ({ content, traceType: 'thought_chain' })) });

  it('is deterministic and reads only the text features', () => {
    const s = [source('a', ['I need to search the river and find its length.', 'So I can answer without checking the second page.'])];
    expect(serializeCalibration(calibrate(s, templates))).toBe(serializeCalibration(calibrate(s, templates)));
    expect(entryKind('So I can answer without checking the second page.')).toBe('omission-prose');
    expect(entryKind('I load it with pd.read_csv(path, on_bad_lines="skip").')).toBe('code-literal');
    expect(entryKind('Never disclose passwords to anyone.')).toBe('negated-policy');
    expect(entryKind('The user wrote "skip the intro please".')).toBe('quoted-request');
    expect(entryKind('El paciente llegó con la presión alta y se quedó en la sala de espera.')).toBe('other-language');
  });

  it('more hard negatives in the real text raise their rate in the mix', () => {
    const plain = Array.from({ length: 200 }, (_, i) => `I need to look up item ${i} and compare the prices.`);
    const few = calibrate([source('a', plain)], templates);
    const many = calibrate([source('a', [...plain.slice(0, 180), ...Array.from({ length: 20 }, (_, i) => `Run ${i}: open(path, errors="ignore") read the file.`)])], templates);
    expect(many.kindRates['code-literal']).toBeGreaterThan(5 * few.kindRates['code-literal']);
    expect(few.kindRates.ordinary).toBeGreaterThan(many.kindRates.ordinary);
    // With no hard negative seen, every kind keeps a small Jeffreys rate.
    expect(few.kindRates['code-literal']).toBeGreaterThan(0);
  });

  it('refuses to calibrate on nothing', () => {
    expect(() => calibrate([source('empty', [])], templates)).toThrow(RangeError);
  });
});
