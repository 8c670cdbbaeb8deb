import type { ShellWord } from '../../permissions/shell/index.js';
import { isCriticalAbsolute } from './critical-target.js';
import { isDiskDevice } from './destructive-commands.js';

/** An interpreter and the options that take its program as the next argument (or attached, `-e'…'`). */
interface Interpreter {
  codeOptions: RegExp;
  /** The first operand is the program (awk). */
  programOperand?: boolean;
}

const PYTHON: Interpreter = { codeOptions: /^-[a-zA-Z]*c$/ };
const INTERPRETERS: Array<[RegExp, Interpreter]> = [
  [/^(python[\d.]*|pypy[\d.]*)$/, PYTHON],
  [/^perl[\d.]*$/, { codeOptions: /^-[a-zA-Z]*[eE]$/ }],
  [/^ruby[\d.]*$/, { codeOptions: /^-[a-zA-Z]*e$/ }],
  [/^(node|nodejs|bun)$/, { codeOptions: /^(-[a-zA-Z]*[ep]|--eval|--print)$/ }],
  [/^deno$/, { codeOptions: /^eval$/ }],
  [/^php[\d.]*$/, { codeOptions: /^-[a-zA-Z]*r$/ }],
  [/^(lua[\d.]*|luajit)$/, { codeOptions: /^-e$/ }],
  [/^(Rscript)$/, { codeOptions: /^-e$/ }],
  [/^(g|m|n)?awk$/, { codeOptions: /^$/, programOperand: true }],
];

/** Recursive deletion, moving, and removal APIs of the common scripting languages. */
const DELETE_APIS = /\b(rmtree|rm_rf|rm_r|remove_dir_all|remove_tree|rmSync|rmdirSync|rimraf|removedirs|remove_entry(_secure)?|emptyDir(Sync)?|move|renames?|renameSync|rm|rmdir|remove)\s*\(/;
/** Ways of naming the home directory in code. */
const HOME_IN_CODE = /expanduser\(\s*['"]~['"]\s*\)|Path\.home\(\)|homedir\(\)|Dir\.home|ENV\[['"]HOME['"]\]|\$ENV\{HOME\}|environ(\.get\(|\[)\s*['"]HOME['"]|env\.HOME|getenv\(\s*['"]HOME['"]\s*\)|['"]~\/?['"]/;
const WRITE_MODE = /['"](w|wb|w\+|wb\+|r\+|rb\+|a|ab)['"]|write|O_WRONLY|O_RDWR|createWriteStream|>/;
const INFINITE_LOOP = /while\s*\(?\s*(True|1|true)\s*\)?|for\s*\(\s*;\s*;\s*\)|loop\s*(do|\{)|fork\s+while\s+fork|while\s*\(?\s*fork/;

/** The string literals of a program ('…', "…", `…`), without their quotes. */
function stringLiterals(code: string): string[] {
  const literals: string[] = [];
  for (const match of code.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g)) {
    literals.push((match[1] ?? match[2] ?? match[3] ?? '').replace(/\\(.)/g, '$1'));
  }
  return literals;
}

/** The program text an interpreter is given on its command line, or `undefined` when it runs a file or reads stdin. */
export function interpreterProgram(name: string, args: ShellWord[]): string | undefined | null {
  const found = INTERPRETERS.find(([pattern]) => pattern.test(name));
  if (!found) return null;
  const [, interpreter] = found;
  if (interpreter.programOperand) {
    const operand = args.find((arg, index) => !arg.value.startsWith('-') && !(index > 0 && /^-[fvF]$/.test(args[index - 1]!.value)));
    return args.some((arg) => arg.value === '-f') ? undefined : operand?.value;
  }
  const index = args.findIndex((arg) => interpreter.codeOptions.test(arg.value));
  if (index === -1) {
    // Attached: perl -e'…', python -c'…'.
    const attached = args.find((arg) => /^-[a-zA-Z]*[ceEr]./.test(arg.value) && !arg.value.startsWith('--'));
    return attached ? attached.value.replace(/^-[a-zA-Z]*?[ceEr]/, '') : undefined;
  }
  return args[index + 1]?.value;
}

/**
 * Looks for the catastrophic in a one-liner of a scripting language: a shell command in one of
 * its string literals (`os.system("rm -rf /")`, `` `rm -rf ~` ``, `["rm", "-rf", "/"]`), a
 * recursive-delete or move API (`shutil.rmtree`, `FileUtils.rm_rf`, `fs.rmSync`, …) next to a
 * critical path literal or the home directory, a write to a disk device, or `fork` in an endless loop.
 * @param shellScan - checks a string as a shell command line.
 */
export function findInInterpreterCode(code: string, shellScan: (command: string) => string | undefined): string | undefined {
  const literals = stringLiterals(code);
  for (const literal of literals) {
    if (!/\s/.test(literal)) continue;
    const found = shellScan(literal);
    if (found) return found;
  }
  // An argument list: ["rm", "-rf", "/"], or a program and its list: spawnSync('rm', ['-rf', '/']).
  for (const list of code.matchAll(/(?:'([^'\\\n]{1,200})'|"([^"\\\n]{1,200})")?\s{0,8},?\s{0,8}\[([^\]]{1,500})\]/g)) {
    const program = list[1] ?? list[2];
    const words = [...(program !== undefined && !/\s/.test(program) ? [program] : []), ...stringLiterals(list[3]!)];
    if (words.length > 1) {
      const found = shellScan(words.map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' '));
      if (found) return found;
    }
  }
  if (DELETE_APIS.test(code)) {
    if (HOME_IN_CODE.test(code)) return 'the program deletes, moves or changes the home directory';
    const target = literals.find((literal) => literal.startsWith('/') && isCriticalAbsolute(literal, 'tree', { home: undefined, workspace: [] }));
    if (target !== undefined) return `the program deletes, moves or changes ${target}`;
  }
  const device = literals.find(isDiskDevice);
  if (device !== undefined && WRITE_MODE.test(code)) return `the program writes to the device ${device}`;
  if (/\bfork\b/.test(code) && INFINITE_LOOP.test(code)) return 'the program forks in an endless loop (a fork bomb)';
  return undefined;
}
