import type { Extraction, Range, Setting } from '../../model/types';
import type { SyntaxNode } from '../treesitter';
import type { Word } from './words';

/** One assignment to a bash array (`ARGS=( --a 1 )`, `ARGS+=( … )`): its flags and the arrays it spreads. */
export interface ArrayDefinition {
  /** Offset of the assignment. */
  start: number;
  /** `+=`: adds to the previous definition instead of replacing it. */
  append: boolean;
  settings: Setting[];
  spreads: string[];
}

/** One program run inside a command: `ray job submit …` and, after `--`, `python3 train.py …`. */
export interface Invocation {
  /** `python3 train.py`, `python3 -m sglang.launch_server`, `vllm serve`, `ray job submit`. */
  summary: string;
  /** The program word (`python3`, `curl`), the anchor for findings. */
  program: SyntaxNode;
  /** The words after the program, up to a `--` that starts another program or the command's end. */
  items: SyntaxNode[];
  /** To the end of the last word, from the command's start (env prefix, wrappers) or, after `--`, from the program. */
  range: Range;
  /** The whole command statement (for suppression placement). */
  statementRange: Range;
  group: string;
}

/** What the command pass leaves for the request-site pass: an invocation, its flags and spread arrays. */
export interface InvocationFlags {
  invocation: Invocation;
  settings: Setting[];
  spreads: string[];
}

/** State shared by the shell extractor's passes over one document. */
export interface ShellContext {
  text: string;
  out: Extraction;
  /** Definitions of each array name, in document order. */
  arrays: Map<string, ArrayDefinition[]>;
  invocations: InvocationFlags[];
  /** Decoded words by node id (a command's words are read by several passes). */
  words: Map<number, Word>;
}
