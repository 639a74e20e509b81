import type { Extraction, Range, Setting } from '../../model/types';
import type { SyntaxNode } from '../treesitter';

/** Flags defined in a bash array (`ARGS=( --a 1 )`), and the arrays it spreads in turn. */
export interface ArrayFlags {
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
  /** From the program to the end of its last word. */
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
  arrays: Map<string, ArrayFlags>;
  invocations: InvocationFlags[];
}
