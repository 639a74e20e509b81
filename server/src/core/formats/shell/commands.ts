import type { Range } from '../../model/types';
import type { SyntaxNode } from '../treesitter';
import type { Invocation, ShellContext } from './context';
import { wordOf, wordText } from './values';

/** Programs that run the next word as the real command (`nohup python x.py`). */
const WRAPPERS = new Set(['nohup', 'exec', 'time', 'command', 'builtin', 'sudo', 'env', 'setsid', 'stdbuf']);
/** `uv run python x.py` and the like: the pair is a wrapper. */
const RUN_WRAPPERS = new Set(['uv', 'poetry', 'pipenv']);
/** Launchers whose summary is the launcher plus the Python script they start. */
const SCRIPT_LAUNCHERS = new Set(['torchrun', 'deepspeed', 'accelerate']);
/** Programs whose first words are arguments, never subcommands. */
const NO_SUBCOMMAND = new Set(['curl', 'wget', 'uvicorn', 'gunicorn', 'text-generation-launcher', 'echo', 'printf', 'cd', 'cat', 'tee', 'sleep', 'kill', 'wait', 'mkdir', 'rm', 'cp', 'mv', 'ls']);
/** CLIs with two levels of subcommands (`ray job submit`, `lmdeploy serve api_server`). */
const TWO_LEVEL = new Set(['ray', 'lmdeploy']);
const SUBCOMMAND = /^[a-z][a-z0-9_-]*$/;
const INTERPRETER = /^(?:python|pypy)[\d.]*$|^(?:ba|z|da)?sh$/;

/** True for a redirect child of a command (`> out.log`, `2>&1`, `<<< "x"`). */
export function isRedirect(node: SyntaxNode): boolean {
  return node.type.endsWith('_redirect');
}

/** The literal text of a word node, or undefined when it expands something. */
function literalOf(context: ShellContext, node: SyntaxNode): string | undefined {
  return isRedirect(node) ? undefined : wordOf(context, node).literal;
}

/** The children of a `command` node: env-prefix assignments and the words (name, arguments, redirects). */
export function commandParts(command: SyntaxNode): { assignments: SyntaxNode[]; words: SyntaxNode[] } {
  const assignments: SyntaxNode[] = [];
  const words: SyntaxNode[] = [];
  for (let i = 0; i < command.childCount; i++) {
    const child = command.child(i);
    if (!child) continue;
    const field = command.fieldNameForChild(i);
    if (child.type === 'variable_assignment') assignments.push(child);
    else if (field === 'name' || field === 'argument' || field === 'redirect') words.push(child);
  }
  return { assignments, words };
}

/**
 * Splits a command's words into the programs it runs. Wrappers (`nohup`, `env K=V`, `uv run`) are
 * skipped; a bare `--` followed by more words starts another program (`ray job submit … -- python3 x.py`).
 * `envWords` collects `K=V` words given to `env`.
 */
export function splitInvocations(
  context: ShellContext,
  words: SyntaxNode[],
  statementRange: Range,
  envWords: SyntaxNode[],
): Invocation[] {
  const result: Invocation[] = [];
  let start = 0;
  while (start < words.length) {
    const programAt = skipWrappers(context, words, start, envWords);
    if (programAt >= words.length) break;
    let end = programAt + 1;
    while (end < words.length && !(literalOf(context, words[end]) === '--' && end + 1 < words.length)) end++;
    const program = words[programAt];
    const items = words.slice(programAt + 1, end);
    const lastWord = [...items].reverse().find((node) => !isRedirect(node)) ?? program;
    result.push({
      summary: summarize(context, program, items),
      program,
      items,
      range: { start: result.length === 0 ? statementRange.start : program.startIndex, end: lastWord.endIndex },
      statementRange,
      group: `cmd@${result.length === 0 ? statementRange.start : program.startIndex}`,
    });
    start = end + 1;
  }
  return result;
}

function skipWrappers(context: ShellContext, words: SyntaxNode[], at: number, envWords: SyntaxNode[]): number {
  let i = at;
  for (;;) {
    while (i < words.length && isRedirect(words[i])) i++;
    const name = programName(context, words[i]);
    if (name !== undefined && RUN_WRAPPERS.has(name) && literalOf(context, words[i + 1]) === 'run') i += 2;
    else if (name !== undefined && WRAPPERS.has(name)) i += 1;
    else return i;
    for (; i < words.length; i++) {
      const literal = literalOf(context, words[i]);
      if (name === 'env' && literal !== undefined && /^[A-Za-z_]\w*=/.test(literal)) envWords.push(words[i]);
      else if (!literal?.startsWith('-')) break;
    }
  }
}

/** The program's name: the basename of a literal word, undefined for redirects and missing words. */
function programName(context: ShellContext, node: SyntaxNode | undefined): string | undefined {
  if (!node || isRedirect(node)) return undefined;
  const literal = literalOf(context, node);
  return literal === undefined ? undefined : literal.slice(literal.lastIndexOf('/') + 1);
}

/**
 * A short name for what a command runs: program plus module, script or subcommand
 * (`python3 train.py`, `python3 -m sglang.launch_server`, `vllm serve`, `ray job submit`, `torchrun x.py`).
 */
function summarize(context: ShellContext, program: SyntaxNode, items: SyntaxNode[]): string {
  const word = wordOf(context, program);
  const name = word.literal !== undefined ? word.literal.slice(word.literal.lastIndexOf('/') + 1) : wordText(context, word);
  const texts = items.map((node) => (isRedirect(node) ? undefined : wordText(context, wordOf(context, node))));
  if (INTERPRETER.test(name) || (word.literal === undefined && /python/i.test(name))) return interpreterSummary(name, texts);
  if (SCRIPT_LAUNCHERS.has(name)) {
    const sub = name === 'accelerate' && texts[0] === 'launch' ? ' launch' : '';
    const script = texts.find((text) => text?.endsWith('.py'));
    return `${name}${sub}${script ? ` ${script}` : ''}`;
  }
  if (NO_SUBCOMMAND.has(name)) return name;
  const parts = [name];
  for (const text of texts.slice(0, TWO_LEVEL.has(name) ? 2 : 1)) {
    if (text === undefined || !SUBCOMMAND.test(text)) break;
    parts.push(text);
  }
  return parts.join(' ');
}

function interpreterSummary(name: string, texts: (string | undefined)[]): string {
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i];
    if (text === undefined) return name;
    if (text === '-m' || text === '-c') return text === '-m' && texts[i + 1] ? `${name} -m ${texts[i + 1]}` : `${name} ${text}`;
    if (text === '-W' || text === '-X') i++;
    else if (!text.startsWith('-')) return `${name} ${text}`;
  }
  return name;
}
