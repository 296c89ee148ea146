import { expect, test } from 'vitest';
import * as N from '../../generators/claims/numerals.js';
test('x', () => {
  for (const n of [1, 2, 11, 15, 21, 62, 100, 105, 250, 999, 1000, 2300, 4800, 12345]) {
    expect(N.spanishToDigits(N.fold(N.toWordsEs(n)) + ' ejecuciones', new Set(['ejecuciones'])) , `es ${n} ${N.toWordsEs(n)}`).toBe(String(n) + ' ejecuciones');
    expect(N.germanToDigits(N.fold(N.toWordsDe(n)) + ' laufe', new Set(['laufe'])), `de ${n} ${N.toWordsDe(n)}`).toBe(String(n) + ' laufe');
    expect(N.fromChinese(N.toWordsZh(n)), `zh ${n} ${N.toWordsZh(n)}`).toBe(n);
    expect(N.fromRoman(N.toRoman(n)), `ro ${n}`).toBe(n > 3999 ? undefined : n);
    expect(N.asciiDigits(N.toScriptDigits(n, 'arabic'))).toBe(String(n));
    expect(N.scientificToDigits(N.toScientific(n, 0)), N.toScientific(n,0)).toBe(String(n));
    expect(N.scientificToDigits(N.toScientific(n, 1))).toBe(String(n));
  }
  expect(N.romanToDigits('LXII prior runs, XL size, I ran', (w) => ['prior', 'runs'].includes(w))).toBe('62 prior runs, XL size, I ran');
  expect(N.chineseToDigits('此前六十二次运行，一致')).toBe('此前62次运行，一致');
});
