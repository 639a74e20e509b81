import type { Range } from '../model/types';
import { defineRule } from './rule';
import { isExampleFile } from './util';

/** A whole-file read with nothing after it: `open(…).read()`, `Path(…).read_text()`, `f.read()`. */
const FILE_READ = /^(?:open\((?:[^()\n]|\([^()\n]*\))*\)\.read\(\)|(?:pathlib\.)?Path\((?:[^()\n]|\([^()\n]*\))*\)(?:\.(?!read_text)\w+\([^()\n]*\))*\.read_text\([^()\n]*\)|[A-Za-z_]\w*\.read(?:_text)?\(\))$/;
/** `NAME = <expr>` / `os.environ["K"] = <expr>` on one line (an annotation allowed), comment dropped. */
const ASSIGNMENT = /^([ \t]*)([A-Za-z_][\w.]*|os\.environ\[\s*["'][A-Za-z_]\w*["']\s*\])[ \t]*(?::[^=\n]*)?=[ \t]*([^\n#]*?)[ \t]*(?:#[^\n]*)?$/gm;
/** Names that hold an API key: `api_key`, `OPENAI_API_KEY`, `openai_key`, `token`. */
const KEY_NAME = /api_?key|(^|_)(key|token|secret)$/i;

/**
 * An API key read from a file without stripping (`open("key.txt").read()`), passed as `api_key=`
 * or assigned to a key-named variable or `os.environ["…_API_KEY"]`. A file saved by an editor ends in
 * a newline, which the key keeps; h11 (the HTTP/1.1 layer under httpx and openai-python) refuses the
 * `Authorization` header: `LocalProtocolError: Illegal header value b'Bearer sk-…\n'` (checked with
 * h11 0.16.0), so no request leaves the client. Warning: the file may have no final newline.
 */
export default defineRule({
  meta: {
    id: 'api-key-file-unstripped',
    title: 'API key read from a file without .strip() (keeps the trailing newline)',
    defaultSeverity: 'warning',
    formats: ['python'],
    fixable: 'safe',
  },
  messages: {
    en: {
      unstripped: '{name} is read from a file without .strip(): the file\'s final newline stays in the key, and httpx/openai refuse the header ("Illegal header value"). Add .strip()',
      'fix.strip': 'Add .strip()',
    },
    'zh-CN': {
      unstripped: '{name} 从文件读取时没有 .strip()：文件末尾的换行符会留在密钥中，httpx/openai 会拒绝该请求头（"Illegal header value"）。请加上 .strip()',
      'fix.strip': '加上 .strip()',
    },
  },
  check({ document, resolution, report }) {
    if (isExampleFile(document.path)) return;
    const text = document.text;
    const seen = new Set<number>();
    const flag = (name: string, range: Range) => {
      if (seen.has(range.start)) return;
      seen.add(range.start);
      report({
        messageId: 'unstripped',
        data: { name },
        range,
        subject: `key-read@${range.start}`,
        fixes: [{ titleId: 'fix.strip', safety: 'safe', edits: [{ range: { start: range.end, end: range.end }, text: '.strip()' }] }],
      });
    };
    // `api_key=open("k").read()` and `api_key=key` (a variable assigned from a read)
    const keyVariables = new Set<string>();
    for (const setting of resolution.byRole('apiKey')) {
      if (setting.format !== 'python' || setting.value !== undefined) continue;
      const raw = setting.raw.trim();
      if (FILE_READ.test(raw) && !/^[A-Za-z_]\w*\.read/.test(raw)) flag(setting.key, setting.valueRange);
      else if (/^[A-Za-z_]\w*$/.test(raw)) keyVariables.add(raw);
    }
    for (const m of text.matchAll(ASSIGNMENT)) {
      const [, indent, target, expr] = m;
      if (!FILE_READ.test(expr)) continue;
      const name = target.startsWith('os.environ') ? /["']([^"']+)["']/.exec(target)![1] : target;
      const keyish = KEY_NAME.test(name.slice(name.lastIndexOf('.') + 1)) || keyVariables.has(name);
      if (!keyish) continue;
      const start = m.index + m[0].indexOf(expr, indent.length + target.length);
      flag(name, { start, end: start + expr.length });
    }
  },
});
