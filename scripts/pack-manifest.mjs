#!/usr/bin/env node
/**
 * The package.json that goes into the tarball (`npm pack`, `npm publish`), without the scripts
 * that only make sense in a checkout.
 *
 * Why: the checkout needs `prepare` (it compiles dist/ on `npm ci`, and npm runs it when a
 * project installs farma-fuzz from a git URL or as a workspace, which is how those routes get
 * a dist/). A tarball already holds dist/, and an install script in it only makes npm warn
 * the consumer. npm has no hook that rewrites the packed manifest, so `prepack` runs
 * `strip` (keep the checkout's file aside, write the reduced one) and `postpack` runs
 * `restore` (put the checkout's file back). A pack that died between the two is repaired by
 * the next `strip` or `restore`: the kept file wins.
 *
 * Usage: node scripts/pack-manifest.mjs strip|restore|check
 *   check: exits 1 when package.json is the reduced one (a pack that never ran `postpack`).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const MANIFEST = path.join(ROOT, 'package.json');
const KEPT = path.join(ROOT, '.tmp', 'package.json.checkout');

/** Scripts dropped from the packed manifest: lifecycle scripts that would run on a consumer's install or that need the checkout. */
const CHECKOUT_ONLY_SCRIPTS = ['prepare', 'prepack', 'postpack'];

/** Writes `text` to `file` through a temporary file and a rename, so a reader never sees half of it. */
function writeAtomic(file, text) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

function restore() {
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
}

function strip() {
  restore();
  const text = readFileSync(MANIFEST, 'utf8');
  const pkg = JSON.parse(text);
  const scripts = { ...pkg.scripts };
  for (const s of CHECKOUT_ONLY_SCRIPTS) delete scripts[s];
  const reduced = { ...pkg, scripts };
  mkdirSync(path.dirname(KEPT), { recursive: true });
  writeAtomic(KEPT, text);
  writeAtomic(MANIFEST, `${JSON.stringify(reduced, null, 2)}\n`);
}

const command = process.argv[2];
if (command === 'strip') strip();
else if (command === 'restore') restore();
else if (command === 'check') {
  if (existsSync(KEPT)) {
    console.error(`package.json is the packed one: a pack stopped before postpack; run: node scripts/pack-manifest.mjs restore`);
    process.exit(1);
  }
} else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore|check');
  process.exit(2);
}
