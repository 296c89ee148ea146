/**
 * The bench sections, in run order. To add a section: write `bench/sections/<name>.ts`
 * exporting one `BenchSection` (see `bench/lib.ts`), and add one line below. Budgets that
 * the section measures are mapped to its row ids in `bench/budgets.ts`.
 */
import type { BenchSection } from '../lib.js';
import { guardCost } from './guard-cost.js';
import { throughput } from './throughput.js';
import { shrinking } from './shrinking.js';
import { replay } from './replay.js';
import { workers } from './workers.js';
import { hugeEntrySection } from './huge-entry.js';
import { memory } from './memory.js';
import { cliStart } from './cli-start.js';
import { attack } from './attack.js';
import { queries } from './queries.js';
import { jsonlLongLine } from './jsonl-long-line.js';

export const SECTIONS: readonly BenchSection[] = [
  guardCost,
  throughput,
  shrinking,
  replay,
  workers,
  hugeEntrySection,
  memory,
  cliStart,
  attack,
  queries,
  jsonlLongLine,
];
