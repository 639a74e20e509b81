import { BudgetExceeded, spend } from '../budget';
import type { Language, Tree } from 'web-tree-sitter';
import { emptyExtraction, type CommandWord, type EnvRead, type Extraction, type Range } from '../model/types';
import { parseWith, snapshotOf, type SyntaxNode } from './treesitter';
import { commandParts, isRedirect, splitInvocations } from './shell/commands';
import type { Invocation, ShellContext } from './shell/context';
import { readCurl } from './shell/curl';
import { attachedValue, readFlags, type FlagOwner } from './shell/flags';
import { addFlagSites } from './shell/sites';
import { isServerLaunch } from './shell/servers';
import { readToolFlags } from './shell/tools';
import { addSetting, rangeOf, wordOf } from './shell/values';
import { decodeNode, decodeWord, defaultedExpansion, expansionVariable, literalSpan } from './shell/words';

export { isServerLaunch } from './shell/servers';

const MAX_PROBLEMS = 50;
const QUOTES = new Set(['"', "'", '`']);

/** Where an assignment's setting goes: the file (`group: 'file'`) or one command's env prefix. */
type AssignmentOwner = Omit<FlagOwner, 'command'> & { command?: string };

/** Deepest nesting a shell file may have before it counts as over the node budget (real scripts nest a handful deep). */
export const MAX_NESTING = 4000;

/** The deepest nesting of `(`, `{`, `[` and backquote pairs in `text` (one linear pass; quotes are not tracked, which only over-counts). */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let backquote = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 || c === 123 || c === 91) max = Math.max(max, ++depth);
    else if ((c === 41 || c === 125 || c === 93) && depth > 0) depth--;
    else if (c === 96) {
      backquote = !backquote;
      depth += backquote ? 1 : -1;
      max = Math.max(max, depth);
    }
  }
  return max;
}

/**
 * Most words (`shellWordCount`) a shell file may have before it counts as over the node budget unparsed.
 * Measured with the CLI (issue 29): a script costs about 1.6 KB per word from parse to findings (200k
 * `\`-continued `--x 1` lines, 400k words: 666 MB, 5.1 s CPU; 500k lines: 1.3 GB), so 400k words stays
 * near the 800 MB goal; real scripts have a few thousand.
 */
export const MAX_WORDS = 400_000;

/**
 * Blank-separated words of `text` outside comments, a `\`-newline counting as a blank (one linear
 * pass; quotes are not tracked, so a quoted phrase counts a word per blank): a proxy for the syntax
 * nodes tree-sitter-bash makes, each word being at least one.
 */
export function shellWordCount(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13 || (c === 92 && (text.charCodeAt(i + 1) === 10 || text.charCodeAt(i + 1) === 13))) {
      inWord = false;
      if (c === 92) i++;
    } else if (!inWord && c === 35) {
      while (i < text.length && text.charCodeAt(i) !== 10) i++;
    } else if (!inWord) {
      inWord = true;
      words++;
    }
  }
  return words;
}

/**
 * Extracts settings from a bash/sh script (BOM already removed) parsed with the tree-sitter-bash
 * `language`: `export K=V`/`K=V`/`local`/`declare`/`readonly` (kind `env`, group `file`), env prefixes
 * `K=V cmd` (group `cmd@<offset>`), long flags of each command and of arrays (`array:NAME` until a
 * command spreads them), curl URLs, `Authorization` headers and JSON bodies, `${K:-d}` defaults,
 * env reads, consumer evidence, comments, and log-prob request sites. Ranges are UTF-16 offsets.
 * Syntax errors become `parseProblems` and the rest is still extracted. Throws only `BudgetExceeded`
 * (`nodes` before parsing for a file nested deeper than `MAX_NESTING` or of more than `MAX_WORDS` words).
 */
export function extractShell(text: string, language: Language): Extraction {
  const out = emptyExtraction();
  let tree: Tree;
  // tree-sitter-bash's memory grows steeply with nesting (100k nested `$(` took 4.3 GB and aborted the
  // process; 20k took 790 MB): a file nested deeper than any script is over the node budget unparsed.
  if (nestingDepth(text) > MAX_NESTING) throw new BudgetExceeded('nodes');
  // Past MAX_WORDS the lint would pass the 800 MB goal before its time budget ran out (issue 29): skipped before the parse.
  if (shellWordCount(text) > MAX_WORDS) throw new BudgetExceeded('nodes', `${MAX_WORDS} shell words`);
  try {
    tree = parseWith(language, text);
  } catch (error) {
    if (error instanceof BudgetExceeded) throw error;
    out.parseProblems.push({ message: `The shell parser failed: ${messageOf(error)}`, range: { start: 0, end: 0 } });
    return out;
  }
  const context: ShellContext = { text, out, arrays: new Map(), invocations: [], words: new Map() };
  try {
    walk(context, tree);
    addFlagSites(context);
  } catch (error) {
    if (error instanceof BudgetExceeded) throw error;
    out.parseProblems.push({ message: `Shell extraction stopped early: ${messageOf(error)}`, range: { start: 0, end: 0 } });
  } finally {
    tree.delete();
  }
  out.settings.sort((a, b) => a.keyRange.start - b.keyRange.start);
  for (const setting of out.settings) if (setting.kind === 'env' && setting.group === 'file') out.bindings[setting.key] = setting;
  return out;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Visits every node of the tree's snapshot (`snapshotOf`) in document order, making node objects only for the ones it reads. */
function walk(context: ShellContext, tree: Tree): void {
  const snapshot = snapshotOf(tree, context.text);
  // inError[i]: node i has an ERROR ancestor. Indices are pre-order, so a parent comes before its children.
  const inError = new Uint8Array(snapshot.size);
  for (let index = 0; index < snapshot.size; index++) {
    spend(0);
    const parent = snapshot.parentOf(index);
    if (parent >= 0) inError[index] = inError[parent] || (snapshot.typeOf(parent) === 'ERROR' ? 1 : 0);
    if (snapshot.isMissingAt(index) || VISITED.has(snapshot.typeOf(index))) visit(context, snapshot.node(index), parent >= 0 ? snapshot.typeOf(parent) : undefined, inError[index] === 1);
  }
}

/** The node types `visit` reads (MISSING tokens are read too, whatever their type). */
const VISITED = new Set(['comment', 'ERROR', 'declaration_command', 'variable_assignment', 'command', 'simple_expansion', 'expansion']);

function visit(context: ShellContext, node: SyntaxNode, parentType: string | undefined, inError: boolean): void {
  if (node.isMissing) {
    if (!inError) addMissing(context, node);
    return;
  }
  switch (node.type) {
    case 'comment':
      addComment(context, node.startIndex, node.endIndex);
      break;
    case 'ERROR':
      if (!inError) addError(context, node);
      break;
    case 'declaration_command': {
      for (const child of node.namedChildren) {
        if (child?.type === 'variable_assignment') readAssignment(context, child, { group: 'file', statementRange: rangeOf(node) });
      }
      break;
    }
    case 'variable_assignment':
      if (parentType !== 'command' && parentType !== 'declaration_command') {
        const statement = parentType === 'variable_assignments' && node.parent ? node.parent : node;
        readAssignment(context, node, { group: 'file', statementRange: rangeOf(statement) });
      }
      break;
    case 'command':
      readCommand(context, node);
      break;
    case 'simple_expansion':
    case 'expansion':
      addEnvRead(context, node);
      break;
  }
}

function readAssignment(context: ShellContext, node: SyntaxNode, owner: AssignmentOwner): void {
  const name = node.childForFieldName('name');
  if (name?.type !== 'variable_name') return;
  const value = node.childForFieldName('value');
  if (value?.type === 'array') {
    const items = value.namedChildren.filter((child): child is SyntaxNode => child !== null);
    const flags = readFlags(context, items, { group: `array:${name.text}`, command: `array:${name.text}`, statementRange: owner.statementRange });
    const append = node.children.some((child) => child?.type === '+=');
    const definitions = context.arrays.get(name.text) ?? [];
    definitions.push({ start: node.startIndex, append, settings: flags.settings, spreads: flags.spreads });
    context.arrays.set(name.text, definitions);
    return;
  }
  if (node.children.some((child) => child?.type === '+=')) return;
  const at = name.endIndex + 1;
  const word = value ? wordOf(context, value) : decodeWord(context.text, at, at, []);
  addSetting(context, { key: name.text, kind: 'env', keyRange: rangeOf(name), ...owner }, word);
}

/**
 * `env K=V cmd`: `K=V` is an env prefix of `cmd`, like `K=V cmd`. `skip` characters of the word's
 * literal head come before the name (`--env=` of `docker run --env=K=V`).
 */
function readEnvWord(context: ShellContext, node: SyntaxNode, owner: AssignmentOwner, skip = 0): void {
  const word = wordOf(context, node);
  const head = word.segments[0];
  const eq = head?.kind === 'literal' ? head.text.indexOf('=', skip) : -1;
  if (head?.kind !== 'literal' || eq <= skip || !/^[A-Za-z_]\w*$/.test(head.text.slice(skip, eq))) return;
  const placement = { key: head.text.slice(skip, eq), kind: 'env' as const, keyRange: literalSpan(head, skip, eq), ...owner };
  addSetting(context, placement, attachedValue(context, node, word, head.offsets[eq] + 1));
}

/** Container runs whose `-e`/`--env K=V` options set the container's environment (docker/podman/nerdctl `run`/`create`). */
const CONTAINER_RUN = /^(docker|podman|nerdctl) (run|create)$/;

/**
 * The `-e K=V`, `--env K=V` and `--env=K=V` options of a container run (`docker run` reference:
 * "--env, -e: Set environment variables"): env settings of the container, grouped with its command.
 * `-e K` alone passes the host's value through and defines nothing here.
 */
function readContainerEnv(context: ShellContext, invocation: Invocation): void {
  if (!CONTAINER_RUN.test(invocation.summary)) return;
  const owner: AssignmentOwner = { group: invocation.group, command: invocation.summary, statementRange: invocation.statementRange };
  const { items } = invocation;
  for (let i = 0; i < items.length; i++) {
    const head = wordOf(context, items[i]).segments[0];
    if (head?.kind !== 'literal') continue;
    if ((head.text === '-e' || head.text === '--env') && items[i + 1]) readEnvWord(context, items[++i], owner);
    else if (head.text.startsWith('--env=')) readEnvWord(context, items[i], owner, '--env='.length);
  }
}

function readCommand(context: ShellContext, node: SyntaxNode): void {
  const { text } = context;
  const { assignments, words } = commandParts(node);
  const name = node.childForFieldName('name');
  const lastAssignment = assignments[assignments.length - 1];
  let statementRange = rangeOf(node);
  // tree-sitter-bash 0.25 sometimes folds `A=1 B=2⏎foo` into one command; an unescaped newline separates them.
  if (lastAssignment && (!name || text.slice(lastAssignment.endIndex, name.startIndex).replace(/\\\r?\n/g, '').includes('\n'))) {
    for (const assignment of assignments) readAssignment(context, assignment, { group: 'file', statementRange: { start: node.startIndex, end: lastAssignment.endIndex } });
    assignments.length = 0;
    if (!name) return;
    statementRange = { start: name.startIndex, end: node.endIndex };
  }
  const envWords: SyntaxNode[] = [];
  const invocations = splitInvocations(context, words, statementRange, envWords);
  const first = invocations[0];
  const owner: AssignmentOwner = { group: first?.group ?? `cmd@${statementRange.start}`, statementRange };
  if (first) owner.command = first.summary;
  for (const assignment of assignments) readAssignment(context, assignment, owner);
  for (const word of envWords) readEnvWord(context, word, owner);
  for (const invocation of invocations) {
    if (isServerLaunch(invocation.summary)) addServerCommand(context, invocation);
    if (invocation.summary === 'curl') {
      readCurl(context, invocation);
      continue;
    }
    const owner = { group: invocation.group, command: invocation.summary, statementRange: invocation.statementRange };
    const { settings, spreads } = readFlags(context, invocation.items, owner);
    readContainerEnv(context, invocation);
    readToolFlags(context, invocation);
    context.invocations.push({ invocation, settings, spreads });
  }
}

/** Records a server launch's words (program first, redirects left out) for `workspace/servers.ts`. */
function addServerCommand(context: ShellContext, invocation: Invocation): void {
  const { text } = context;
  const words: CommandWord[] = [invocation.program, ...invocation.items].filter((node) => !isRedirect(node)).map((node) => ({ literal: wordOf(context, node).literal, range: rangeOf(node) }));
  const start = invocation.program.startIndex;
  const lineBreak = text.indexOf('\n', start);
  let end = Math.max(invocation.program.endIndex, Math.min(invocation.range.end, lineBreak < 0 ? text.length : lineBreak));
  while (end > invocation.program.endIndex && /[\s\\]/.test(text[end - 1])) end--;
  (context.out.commands ??= []).push({ words, range: { start, end } });
}

/**
 * The words of the first command in `line` as tree-sitter-bash reads them (quotes removed, escapes
 * decoded, `literal` undefined for a word that expands something), ranges into `line`; redirects are
 * left out. For strings that are split like shell words but never run by a shell (Compose `command:`).
 * `[]` when `line` holds no command, or is nested or long past what `extractShell` parses. Never
 * throws except `BudgetExceeded`.
 */
export function commandWords(line: string, language: Language): CommandWord[] {
  if (nestingDepth(line) > MAX_NESTING || shellWordCount(line) > MAX_WORDS) return [];
  let tree: Tree;
  try {
    tree = parseWith(language, line);
  } catch (error) {
    if (error instanceof BudgetExceeded) throw error;
    return [];
  }
  try {
    const snapshot = snapshotOf(tree, line);
    for (let index = 0; index < snapshot.size; index++) {
      if (snapshot.typeOf(index) !== 'command') continue;
      const { assignments, words } = commandParts(snapshot.node(index));
      return [...assignments, ...words].filter((word) => !isRedirect(word)).sort((a, b) => a.startIndex - b.startIndex).map((word) => ({ literal: decodeNode(line, word).literal, range: rangeOf(word) }));
    }
    return [];
  } finally {
    tree.delete();
  }
}

function addEnvRead(context: ShellContext, node: SyntaxNode): void {
  const variable = expansionVariable(node);
  if (!variable) return;
  const read: EnvRead = { name: variable.text, range: rangeOf(node) };
  const defaulted = defaultedExpansion(context.text, node);
  if (defaulted?.defaultWord.literal !== undefined) read.defaultValue = defaulted.defaultWord.literal;
  context.out.envReads.push(read);
}

function addComment(context: ShellContext, start: number, end: number): void {
  const source = context.text.slice(start, end).trimEnd();
  context.out.comments.push({ text: source, range: { start, end: start + source.length } });
}

function addProblem(context: ShellContext, message: string, range: Range, zh: string, kind: 'syntax' | 'grammar', hidden: Range): void {
  if (context.out.parseProblems.length < MAX_PROBLEMS) context.out.parseProblems.push({ message, zh, range, kind, hidden });
}

/** The first line of `[start, end)`, at least one character long when the text allows it. */
function firstLine(text: string, start: number, end: number): Range {
  let stop = text.indexOf('\n', start);
  if (stop < 0 || stop > end) stop = end;
  while (stop > start && /\s/.test(text[stop - 1])) stop--;
  return { start, end: stop > start ? stop : Math.min(start + 1, text.length) };
}

function addError(context: ShellContext, node: SyntaxNode): void {
  const { text } = context;
  const candidates = [node, ...node.children.filter((child): child is SyntaxNode => child?.type === 'ERROR')];
  const quoteAt = candidates.find((candidate) => QUOTES.has(text[candidate.startIndex]));
  if (quoteAt) {
    const quote = text[quoteAt.startIndex];
    addProblem(context, `Unterminated quote: the ${quote} opened here is never closed; the rest of the script may be misread.`, firstLine(text, quoteAt.startIndex, node.endIndex), `引号没有闭合：这里打开的 ${quote} 一直没有关闭；脚本其余部分可能被误读。`, 'syntax', { start: node.startIndex, end: text.length });
  } else {
    addProblem(context, 'Shell syntax error: this statement could not be parsed; settings in it may be missed.', firstLine(text, node.startIndex, node.endIndex), 'Shell 语法错误：无法解析这条语句；其中的设置可能被遗漏。', 'grammar', rangeOf(node));
  }
}

function addMissing(context: ShellContext, node: SyntaxNode): void {
  const anchor = node.parent ?? node;
  const range = firstLine(context.text, anchor.startIndex, anchor.endIndex);
  const message = QUOTES.has(node.type)
    ? `Unterminated quote: the closing ${node.type} is missing; the rest of the script may be misread.`
    : `Shell syntax error: "${node.type}" is missing here.`;
  const zh = QUOTES.has(node.type) ? `引号没有闭合：缺少结束的 ${node.type}；脚本其余部分可能被误读。` : `Shell 语法错误：这里缺少 "${node.type}"。`;
  addProblem(context, message, range, zh, QUOTES.has(node.type) ? 'syntax' : 'grammar', QUOTES.has(node.type) ? { start: anchor.startIndex, end: context.text.length } : rangeOf(anchor));
}
