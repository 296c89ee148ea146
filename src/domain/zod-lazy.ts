/**
 * zod, loaded on first use: the schemas at the edges are built when the first value is checked,
 * so commands that check none (`list`, `--help`) start without loading zod.
 */
import { createRequire } from 'node:module';
import type * as Zod from 'zod';

let loaded: typeof Zod | undefined;

/** The zod module (`z` namespace), required synchronously the first time. */
export function zod(): typeof Zod.z {
  loaded ??= createRequire(import.meta.url)('zod') as typeof Zod;
  return loaded.z;
}
