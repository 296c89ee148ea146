#!/usr/bin/env node
// The `farma-fuzz` command: runs the compiled CLI (dist/, built by `npm run build`, which
// `npm ci`, `npm install` from git and workspaces run through `prepare`, and `npm pack` through `prepack`).
// In a checkout without a build it falls back to the TypeScript sources through tsx.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/src/cli/main.js', import.meta.url);
if (existsSync(compiled)) {
  const { runAsProgram } = await import(compiled.href);
  await runAsProgram(process.argv.slice(2));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { runAsProgram } = await import('../src/cli/main.ts');
  await runAsProgram(process.argv.slice(2));
}
