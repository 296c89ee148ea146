/**
 * Reading a report.json given on the command line (`compare A B`, `fuzz --baseline`): a file,
 * or a report folder holding one; parsed and checked by `src/report/report-file.ts`.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../domain/errors.js';
import type { ReportData } from '../report/model.js';

/** Reads and checks a report: a report.json, or a report folder holding one. @throws InputError naming the path. */
export async function readReport(given: string, role: string): Promise<{ report: ReportData; file: string }> {
  let file = path.resolve(given);
  let st;
  try {
    st = statSync(file);
  } catch {
    throw new InputError(`${role}: no such file or folder (give the report.json of a fuzz run, or its report folder)`, { file: given });
  }
  if (st.isDirectory()) {
    file = path.join(file, 'report.json');
    try {
      statSync(file);
    } catch {
      throw new InputError(`${role}: this folder holds no report.json (give the report folder of a fuzz or merge-reports run)`, { file: given });
    }
  }
  const shown = path.relative(process.cwd(), file) || file;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw new InputError(`cannot read ${role}: ${cause instanceof Error ? cause.message : String(cause)}`, { file: shown }, { cause });
  }
  const { parseReportJson } = await import('../report/report-file.js');
  return { report: parseReportJson(text, shown), file: shown };
}

