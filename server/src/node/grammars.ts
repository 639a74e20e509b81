import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Language, Parser } from 'web-tree-sitter';
import type { Grammars } from '../core/formats/treesitter';

const WASM_FILES = ['web-tree-sitter.wasm', 'tree-sitter-python.wasm', 'tree-sitter-bash.wasm', 'tree-sitter-javascript.wasm', 'tree-sitter-typescript.wasm', 'tree-sitter-tsx.wasm'] as const;

/**
 * Directory holding the `.wasm` files (the runtime and five grammars): `dist/grammars` beside the bundle, or the packages in
 * `node_modules` when running from source (tests). Throws when neither has them.
 */
export function grammarDirectory(): string {
  const candidates = [join(__dirname, 'grammars'), join(__dirname, '..', 'dist', 'grammars'), join(__dirname, '..', '..', 'dist', 'grammars')];
  for (const dir of candidates) if (WASM_FILES.every((f) => existsSync(join(dir, f)))) return dir;
  throw new Error(`grammar wasm files not found (looked in ${candidates.join(', ')}); run "npm run build"`);
}

let loading: Promise<Grammars> | undefined;

/** Loads the Python, bash, JavaScript, TypeScript and TSX grammars once per process. Rejects when a wasm file is missing or invalid. */
export function loadGrammars(): Promise<Grammars> {
  loading ??= (async () => {
    const dir = grammarDirectory();
    await Parser.init({ locateFile: (name: string) => join(dir, name) });
    // Bytes, not a path: given a path, web-tree-sitter reads it through `import('fs/promises')`, which a
    // bundle compiled by the launcher's `vm.Script` (src/cli/launch.ts) cannot run.
    const [python, bash, javascript, typescript, tsx] = await Promise.all(
      ['tree-sitter-python.wasm', 'tree-sitter-bash.wasm', 'tree-sitter-javascript.wasm', 'tree-sitter-typescript.wasm', 'tree-sitter-tsx.wasm'].map((name) => Language.load(readFileSync(join(dir, name)))),
    );
    return { python, bash, javascript, typescript, tsx };
  })();
  return loading;
}

