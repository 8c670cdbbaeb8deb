import type { ShellWord } from '../../permissions/shell/index.js';
import { interpreterProgram } from './interpreter-code.js';
import { sedScriptProblem } from './sed-script-problem.js';

const AWK = /^(g|m|n)?awk$/;
/** Options that only print something about the interpreter itself. */
const ABOUT = /^(-V|--version|-h|--help)$/;

/** The sed scripts of a command line (`-e`, `--expression`, else the first operand); `undefined` when they come from a file (`-f`). */
function sedScripts(args: readonly ShellWord[]): ShellWord[] | undefined {
  const scripts: ShellWord[] = [];
  let fromFile = false;
  const operands: ShellWord[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg.value === '-e' || arg.value === '--expression') scripts.push(args[++index] ?? arg);
    else if (arg.value.startsWith('--expression=')) scripts.push({ ...arg, value: arg.value.slice('--expression='.length) });
    else if (/^-[nrsuzE]*e./.test(arg.value)) scripts.push({ ...arg, value: arg.value.slice(arg.value.indexOf('e') + 1) });
    else if (arg.value === '-f' || arg.value === '--file' || arg.value.startsWith('--file=') || /^-[nrsuzE]*f/.test(arg.value)) fromFile = true;
    else if (arg.value === '-l' || arg.value === '--line-length') index++;
    else if (!arg.value.startsWith('-') || arg.value === '-') operands.push(arg);
  }
  if (scripts.length === 0 && !fromFile && operands[0] !== undefined) scripts.push(operands[0]);
  return fromFile && scripts.length === 0 ? undefined : scripts;
}

/**
 * Why a command runs a program written on its own command line that may write files, or
 * `undefined`: code for an interpreter (`python3 -c`, `node -e`, `perl -e`, `ruby -e`, `php -r`
 * …, or one it reads from its input: a here-document, a pipe), an awk program with `system(`, a
 * pipe or an output redirection, a sed script with `w`/`e`, `make --eval`. What such code writes
 * cannot be named before it runs. A program in a file (`python3 build.py`, `make`, `awk -f x`,
 * `sed -f x`) is the program's own, as for any other program: not looked into.
 */
export function inlineProgramProblem(name: string, args: readonly ShellWord[]): string | undefined {
  if (name === 'sed') {
    for (const script of sedScripts(args) ?? []) {
      if (script.hasExpansion) return 'the sed script is known only at run time';
      const problem = sedScriptProblem(script.value);
      if (problem) return problem;
    }
    return undefined;
  }
  if (name === 'make' || name === 'gmake') {
    const inline = args.find((arg, index) => /^(--eval|-E)/.test(arg.value) || ((arg.value === '-f' || arg.value === '--file' || arg.value === '--makefile') && /^(-|\/dev\/stdin|\/dev\/fd\/.*|\/proc\/self\/fd\/.*)$/.test(args[index + 1]?.value ?? '')));
    return inline ? `make ${inline.value} runs a makefile given on its command line or its input, whose writes cannot be named` : undefined;
  }
  const program = interpreterProgram(name, [...args]);
  if (program === null) return undefined;
  if (AWK.test(name)) {
    if (program === undefined) return undefined;
    return /system\s*\(|[|>]/.test(program) ? `the ${name} program may write files or run commands (system(), a pipe or a redirection)` : undefined;
  }
  if (program !== undefined) return `${name} runs code given on its command line, which may write any file`;
  // No code option: a script file or a module (`-m`) is the program's own; none means its input.
  if (args.some((arg) => ABOUT.test(arg.value) || arg.value === '-m' || (!arg.value.startsWith('-') && arg.value !== ''))) return undefined;
  return `${name} runs code it reads from its input, which may write any file`;
}
