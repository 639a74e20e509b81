import type { Location } from 'vscode-languageserver';
import { join } from 'node:path';
import type { EnvIndex } from '../core/workspace/env-index';
import type { EnvLocation } from '../core/workspace/env-facts';
import { pathToUri } from './workspace';

/** The env variable named at a core offset of an indexed file: a read, or a definition's key or value. */
export function envNameAt(index: EnvIndex, relPath: string, offset: number): { name: string; kind: 'read' | 'definition' } | undefined {
  const file = index.fileEnv(relPath);
  if (!file) return undefined;
  const inside = (l: EnvLocation) => offset >= l.range.start && offset <= l.range.end;
  const definition = file.definitions.find((d) => inside(d.at) || inside(d.valueAt));
  if (definition) return { name: definition.name, kind: 'definition' };
  const reads = file.reads.filter((r) => inside(r.at));
  // the innermost read wins: `${A:-${B}}`
  const read = reads.sort((a, b) => a.at.range.end - a.at.range.start - (b.at.range.end - b.at.range.start))[0];
  return read ? { name: read.name, kind: 'read' } : undefined;
}

function toLocation(root: string, at: EnvLocation): Location {
  return { uri: pathToUri(join(root, at.path)), range: { start: at.start, end: at.end } };
}

/**
 * `textDocument/definition` on an env read or definition: every definition of the variable, in load
 * order for the document (process environment, then `.env.local`, `.env`, …; definitions no loader
 * applies here last). `[]` when the offset names no variable.
 */
export function envDefinitions(index: EnvIndex, root: string, relPath: string, offset: number): Location[] {
  const found = envNameAt(index, relPath, offset);
  if (!found) return [];
  return index.chainFor(found.name, relPath).map((e) => toLocation(root, e.definition.at));
}

/**
 * `textDocument/references` on an env read or definition: every read of the variable in the
 * workspace (path order), and its definitions first when `includeDeclaration`.
 */
export function envReferences(index: EnvIndex, root: string, relPath: string, offset: number, includeDeclaration: boolean): Location[] {
  const found = envNameAt(index, relPath, offset);
  if (!found) return [];
  const definitions = includeDeclaration ? index.definitionsOf(found.name).map((d) => toLocation(root, d.at)) : [];
  return [...definitions, ...index.readsOf(found.name).map((r) => toLocation(root, r.at))];
}
