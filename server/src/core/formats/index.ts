import { emptyExtraction, type Extraction, type Format } from '../model/types';
import type { Grammars } from './treesitter';
import { extractDotenv } from './dotenv';
import { extractYaml } from './yaml';
import { composeCommands } from './compose';
import { extractJson } from './json';
import { extractJson5, isJson5Path } from './json5';
import { extractPython } from './python';
import { isIpythonPath } from '../files';
import { extractShell } from './shell';
import { extractToml } from './toml';
import { extractIpython } from './ipython';
import { extractJavaScript } from './javascript';
import { isGeneratedJavaScriptPath } from '../files';

/**
 * Runs the extractor for `format` over `text` (BOM already removed). Extractors never throw on
 * malformed input: they return what they could recover plus `parseProblems`.
 * `path` is used only for format-specific conventions (compose files, `openclaw.json`).
 */
export function extract(format: Format, text: string, path: string, grammars: Grammars): Extraction {
  switch (format) {
    case 'dotenv':
      return extractDotenv(text);
    case 'yaml': {
      const out = extractYaml(text, path);
      const commands = composeCommands(text, out, grammars.bash);
      if (commands.length) out.commands = commands;
      return out;
    }
    case 'json':
      return isJson5Path(path) ? extractJson5(text, path) : extractJson(text, path);
    case 'python':
      return isIpythonPath(path) ? extractIpython(text, grammars.python, grammars.bash) : extractPython(text, grammars.python);
    case 'shell':
      return extractShell(text, grammars.bash);
    case 'toml':
      return extractToml(text, path);
    case 'javascript':
      return isGeneratedJavaScriptPath(path) ? emptyExtraction() : extractJavaScript(text, javascriptGrammar(path, grammars));
    case 'notebook':
      throw new Error('notebooks are linted cell by cell (lintNotebook), not extracted whole');
  }
}

/** The grammar a JavaScript/TypeScript path is parsed with: `.ts/.mts/.cts` TypeScript, `.tsx` TSX, else JavaScript (which reads JSX). */
function javascriptGrammar(path: string, grammars: Grammars) {
  if (/\.tsx$/i.test(path)) return grammars.tsx;
  return /\.(m|c)?ts$/i.test(path) ? grammars.typescript : grammars.javascript;
}
