#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so `npx farma-fuzz …` works from an install.
import { register } from 'tsx/esm/api';

register();
const { runAsProgram } = await import('../src/cli/main.ts');
await runAsProgram(process.argv.slice(2));
