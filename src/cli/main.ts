#!/usr/bin/env node
/**
 * farma-fuzz command line: the composition root. It alone reads argv, writes stdout and
 * sets exit codes (table in `./exit-codes.ts`): 0 every invariant held, 1 a property failed
 * (or a fixed regression came back), 2 usage or configuration, 3 input, 4 guard, 5 internal,
 * 130 interrupted.
 * With a CI gate (`--max-fpr`, `--max-bypass`) the gate alone decides 0 or 1 for `fuzz`,
 * plus the invariants with `--require-invariants` (see `exit-verdict.ts`).
 */
import path from 'node:path';
import { existsSync, readFileSync, writeSync } from 'node:fs';
import { PACKAGE_ROOT } from '../domain/package-root.js';
import { Command, CommanderError } from 'commander';
import { FarmaError, errorMessage } from '../domain/errors.js';
import { guardSpecSecrets, redactSecrets, registerSecret } from '../domain/secrets.js';
import { EXIT, EXIT_CODES_HELP, STOP_SIGNALS, exitCodeOfError, exitCodeOfSignal, type StopSignal } from './exit-codes.js';
import { closeOpenGuards, session } from './guard-session.js';
import { foreignCode } from './context.js';
import { registerFuzzCommand } from './commands/fuzz.js';
import { registerReplayCommand } from './commands/replay.js';
import { registerCheckCommand } from './commands/check.js';
import { registerFprCommand } from './commands/fpr.js';
import { registerImportCommand } from './commands/import.js';
import { registerMergeReportsCommand } from './commands/merge-reports.js';
import { registerCompareCommand } from './commands/compare.js';
import { registerListCommand } from './commands/list.js';

/**
 * Commands whose modules are heavy (vega, the LLM client, every generator): `main` loads
 * them only when the command line may name them, so `list`, `check` and the rest start fast.
 */
const LAZY_COMMANDS: Record<string, (program: Command, exit: (code: number) => void) => Promise<unknown>> = {
  eval: async (program, exit) => (await import('./commands/eval.js')).registerEvalCommand(program, exit),
  search: async (program, exit) => (await import('./commands/search.js')).registerSearchCommand(program, exit),
};

/** The command named on the command line (the first word that is not an option), if any. */
function commandWord(argv: readonly string[]): string | undefined {
  return argv.find((a) => !a.startsWith('-'));
}

/** The `version` field of farma-fuzz's package.json (`unknown` when it cannot be read). */
function packageVersion(): string {
  try {
    return String((JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version?: unknown }).version ?? 'unknown');
  } catch {
    return 'unknown';
  }
}

/**
 * Builds the full program: every command, including the lazily loaded ones (for tests and
 * for help). `main` builds a smaller one when the command line names a light command.
 */
export async function buildFullProgram(exit: (code: number) => void): Promise<Command> {
  const program = buildProgram(exit);
  for (const register of Object.values(LAZY_COMMANDS)) await register(program, exit);
  return program;
}

export function buildProgram(exit: (code: number) => void): Command {
  const program = new Command();
  program
    .name('farma-fuzz')
    .description('Property-based adversarial fuzzer for LLM-agent memory guards (FARMA attacks vs SENTINEL and baselines).')
    .version(packageVersion(), '-V, --version', 'print the version of farma-fuzz')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', `\n${EXIT_CODES_HELP}`)
    .exitOverride();
  // Each command is registered by its own module (src/cli/commands/), in the order --help lists them.
  for (const register of [registerFuzzCommand, registerReplayCommand, registerCheckCommand, registerFprCommand, registerImportCommand, registerMergeReportsCommand, registerCompareCommand, registerListCommand]) register(program, exit);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  // A --guard URL's password or query key, or an exec: command's KEY=value, is a secret from
  // here on: every message, report and replay command hides it.
  for (const word of argv) for (const s of guardSpecSecrets(word.replace(/^--guard=/, ''))) registerSecret(s);
  let code = 0;
  const setCode = (c: number): void => {
    code = c;
  };
  const program = buildProgram(setCode);
  try {
    // Heavy commands are registered only when named, or when the word is not a light
    // command (help, a typo: then commander lists and suggests every command).
    const word = commandWord(argv);
    const light = word !== undefined && word !== 'help' && program.commands.some((c) => c.name() === word || c.aliases().includes(word));
    for (const [name, register] of Object.entries(LAZY_COMMANDS)) if (!light || word === name) await register(program, setCode);
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version exit 0; commander already printed its message.
      return e.exitCode === 0 || e.code === 'commander.helpDisplayed' || e.code === 'commander.version' ? EXIT.ok : EXIT.usage;
    }
    if (e instanceof FarmaError && e.code !== 'internal') {
      process.stderr.write(`farma-fuzz: ${e.name}: ${redactSecrets(e.message)}\n`);
      return exitCodeOfError(e);
    }
    process.stderr.write(`farma-fuzz: internal error: ${redactSecrets(e instanceof Error ? (e.stack ?? e.message) : errorMessage(e))}\n`);
    return EXIT.internal;
  }
}

/** The command being run (`fuzz`, `check`, …), named in the early-exit message. */
let runningCommand = 'the command';
/** The exit code `main` settled on; undefined while the command runs. */
let settledCode: number | undefined;
/** True while farma-fuzz itself ends the process (a second Ctrl-C), so the exit is not blamed on a guard. */
let ownExit = false;

/** Ends the process with `code` on farma-fuzz's own behalf (never rewritten as a guard's early exit). */
function exitNow(code: number): never {
  ownExit = true;
  process.exit(code);
}

/** Writes to stderr synchronously (for the `exit` path, where asynchronous writes are lost). */
function stderrNow(text: string): void {
  try {
    writeSync(2, text);
  } catch {
    // stderr closed: nothing more can be said.
  }
}

/**
 * Process-level safety nets for the real CLI: an exit code that is never a silent 0, guard
 * promise rejections that nobody awaited, and Ctrl-C closing guard subprocesses.
 * - Guard or config code that ends the process before the command has finished
 *   (`process.exit(n)`, `process.reallyExit(n)`, or `process.exitCode = 0` and nothing left to
 *   wait on) gives exit 4 (guard), with a line saying so: a crash must never read as a pass
 *   or as a finding. After the command has finished, a later exit cannot change
 *   its code to 0.
 * - An exception thrown outside any call (a guard's timer or event handler) gives exit 4 when
 *   foreign code (a guard module, exec or HTTP guard, a config file) was loaded, else 5.
 */
export function installProcessHandlers(): void {
  // Until main() settles the code is 4 (guard): if the event loop drains first (a guard module,
  // a guard call or a config file whose loading never finishes), the run must not look like a pass.
  process.exitCode = EXIT.guard;
  // A reader that stops early (`farma-fuzz --help | head`) closes stdout: the run goes on and
  // finishes its files; only the printing stops.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
  });
  let settled = false;
  process.on('beforeExit', () => {
    if (!settled) {
      settled = true;
      process.exitCode = EXIT.guard;
      process.stderr.write(`farma-fuzz: stopped before ${runningCommand} had finished: something it waited on (a guard module, a config file or a guard call) never completed; exit ${EXIT.guard} (guard)\n`);
    }
  });
  // Every way out of the process passes here, the event loop draining included: before main
  // settles only farma-fuzz's own exits keep their code.
  let requestedExit: number | undefined;
  process.on('exit', (code) => {
    requestedExit ??= code;
    if (settledCode === undefined && !ownExit) process.exitCode = EXIT.guard;
    else if (settledCode !== undefined && settledCode !== EXIT.ok && !ownExit) process.exitCode = settledCode;
  });
  const proc = process as unknown as { reallyExit: (code?: number) => void; _exiting?: boolean };
  const reallyExit = proc.reallyExit.bind(process);
  proc.reallyExit = (requested?: number) => {
    let code = requested ?? 0;
    if (!ownExit && settledCode === undefined) {
      stderrNow(`\nfarma-fuzz: guard or config code ended the process (process.exit(${requestedExit ?? code})) before ${runningCommand} had finished; counted as a guard error, exit ${EXIT.guard}. Nothing more was written: a guard must return verdicts, never end the process.\n`);
      code = EXIT.guard;
      // process.reallyExit called directly skips the 'exit' event: run its listeners (they end exec guards' process groups).
      if (proc._exiting !== true) {
        proc._exiting = true;
        process.emit('exit', code);
      }
    } else if (!ownExit && settledCode !== undefined && settledCode !== EXIT.ok) {
      code = settledCode;
    }
    reallyExit(code);
  };
  process.on('uncaughtException', (e) => {
    const code = foreignCode.loaded ? EXIT.guard : EXIT.internal;
    const who = foreignCode.loaded ? 'most likely from guard or config code (a timer or event handler outside any call)' : 'an internal error of farma-fuzz (please report it)';
    stderrNow(`\nfarma-fuzz: uncaught exception, ${who}: ${redactSecrets(e instanceof Error ? (e.stack ?? e.message) : errorMessage(e))}\nexit ${code}: the command did not finish.\n`);
    exitNow(settledCode !== undefined && settledCode !== EXIT.ok ? settledCode : code);
  });
  process.on('unhandledRejection', (reason) => {
    process.stderr.write(`warning: a promise was rejected and nobody handled it (often a guard): ${redactSecrets(errorMessage(reason))}\n`);
  });
  // SIGTERM (`timeout`, `docker stop`, CI cancellation) and SIGHUP (a closed terminal) stop a run
  // as Ctrl-C does: the first stops a fuzz campaign after the current batch, which
  // then writes its partial report and corpus; outside a campaign, or at the second signal, every
  // guard is closed (exec guards: their whole process group) and the code is 128 + the signal's number.
  let quitting = false;
  const onStop = (signal: StopSignal): void => {
    const again = signal === 'SIGINT' ? 'Ctrl-C again' : `send ${signal} again`;
    if (session.activeRun && !session.activeRun.signal.aborted) {
      session.stopSignal = signal;
      session.activeRun.abort();
      process.stderr.write(`\nfarma-fuzz: ${signal}: stopping after the current batch; the partial report and corpus will be written (${again} to quit now)\n`);
      return;
    }
    if (session.finishing && session.stopSignal === undefined) {
      session.stopSignal = signal;
      process.stderr.write(`\nfarma-fuzz: ${signal}: the run is over; writing its outputs first (${again} to quit now)\n`);
      return;
    }
    if (quitting) exitNow(exitCodeOfSignal(signal));
    quitting = true;
    process.stderr.write(`\nfarma-fuzz: ${signal}: interrupted; closing guards (${again} to force). Corpus appends already written are kept.\n`);
    void closeOpenGuards().finally(() => exitNow(exitCodeOfSignal(signal)));
  };
  for (const signal of STOP_SIGNALS) process.on(signal, () => onStop(signal));
  mainSettled = () => {
    settled = true;
    settledCode = typeof process.exitCode === 'number' ? process.exitCode : Number(process.exitCode ?? 0);
  };
}

let mainSettled: () => void = () => undefined;

/**
 * `npm run cli` and `npm run fuzz` start in the package folder whatever folder the user
 * typed them in; npm keeps that folder in INIT_CWD. Going back there makes `--input`,
 * `--out`, `--corpus` and the other relative paths mean what the user meant, as they do
 * under `npx farma-fuzz`.
 */
function useCallersFolder(env: NodeJS.ProcessEnv): void {
  const init = env.INIT_CWD;
  if (init === undefined || env.npm_package_name !== 'farma-fuzz' || (env.npm_lifecycle_event !== 'cli' && env.npm_lifecycle_event !== 'fuzz')) return;
  if (path.resolve(init) === process.cwd() || !existsSync(init)) return;
  process.chdir(init);
}

/** Runs the CLI as a program: sets the process exit code from `main`. */
export async function runAsProgram(argv: string[]): Promise<void> {
  installProcessHandlers();
  runningCommand = commandWord(argv) ?? runningCommand;
  useCallersFolder(process.env);
  try {
    process.exitCode = await main(argv);
  } catch (e) {
    process.stderr.write(`farma-fuzz: ${redactSecrets(errorMessage(e))}\n`);
    process.exitCode = EXIT.internal;
  } finally {
    mainSettled();
  }
  // The command has finished: what guard code left running (a timer, a socket, a child) must not
  // keep the process alive. An unref'd timer fires only while something else holds the loop.
  setTimeout(() => {
    stderrNow('farma-fuzz: the command has finished, but guard code left something running (a timer, a socket, a process); exiting anyway\n');
    exitNow(typeof process.exitCode === 'number' ? process.exitCode : EXIT.internal);
  }, 5_000).unref();
}

const isEntry = process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isEntry) void runAsProgram(process.argv.slice(2));
