import type { Extraction, Format, Range } from '../model/types';
import { overlapping } from '../range-lookup';

/**
 * The template engine that renders a file before any loader reads it:
 * - `go`: Go `text/template` actions as Helm charts use them (`{{- with .Values.x }}`, `{{ include "…" . }}`,
 *   `{{ $v := … }}`, `{{/* … *\/}}`; Helm docs, "Template Guide");
 * - `jinja`: Jinja statements `{% if … %}` / comments `{# … #}` (with its `{{ … }}` expressions), as in
 *   `*.j2` configs, Ansible, envoy/archgw config templates;
 * - `cookiecutter`: cookiecutter/copier project templates (`{{cookiecutter.x}}`, `{{ _copier_conf }}`, or a
 *   folder name holding `{{`).
 */
export type TemplateEngine = 'go' | 'jinja' | 'cookiecutter';

/** A templated file: its engine and the ranges (UTF-16 offsets, end exclusive) of every template action. */
export interface TemplateSyntax {
  engine: TemplateEngine;
  actions: Range[];
}

/** A Go template action: `{{` (optionally `{{-`) then a pipeline start Go templates have and Jinja/Mustache text does not. */
const GO_ACTION = /\{\{-?\s*(?:\.[A-Za-z$]|\$|\/\*|(?:if|else|end|range|with|define|template|include|block|toYaml|toJson|tpl|quote|squote|default|required|printf|lookup|b64enc|trunc|nindent|indent)\b)/;

/** A Jinja statement (`{% if %}`, `{%- for x in y %}`, `{% set %}`, `{% raw %}`). */
const JINJA_STATEMENT = /\{%-?\s*(?:if|elif|else|endif|for|endfor|set|endset|macro|endmacro|include|import|from|block|endblock|extends|raw|endraw|filter|endfilter|call|endcall|with|endwith)\b/;

/** Cookiecutter and copier variables. */
const COOKIECUTTER = /\{\{\s*(?:cookiecutter\.|_copier)/;

/** The openers of template actions and their closers. */
const CLOSER: Readonly<Record<string, string>> = { '{{': '}}', '{%': '%}', '{#': '#}' };

/**
 * Every `{{ … }}`, `{% … %}` and `{# … #}` span (shortest, may cross lines), as the regex
 * `/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}|\{#[\s\S]*?#\}/g` finds them, in linear time: that regex retries at
 * every unclosed opener and scans to the end of the text each time (20,000 `{{` with no `}}`: 2.5 s,
 * quadratic). Once an opener kind has no closer after some position it has none after any later one.
 */
function actionSpans(text: string): Range[] {
  const out: Range[] = [];
  const unclosed = new Set<string>();
  const opener = /\{[{%#]/g;
  for (let m = opener.exec(text); m !== null; m = opener.exec(text)) {
    // the regex retries one character later (`{{%`: a `{%` opener inside a failed `{{`)
    const close = unclosed.has(m[0]) ? -1 : text.indexOf(CLOSER[m[0]], m.index + 2);
    if (close < 0) {
      unclosed.add(m[0]);
      opener.lastIndex = m.index + 1;
      continue;
    }
    out.push({ start: m.index, end: close + 2 });
    opener.lastIndex = close + 2;
  }
  return out;
}

/** Formats read by a whole-file loader, where a template action makes the raw text unreadable. */
const STRUCTURED: ReadonlySet<Format> = new Set(['yaml', 'json', 'toml', 'dotenv']);

/**
 * Whether `text` at `path` is a template rather than the file its loader reads, and where its actions are.
 * Structured formats (YAML, JSON, TOML, dotenv) are templated when they hold a Go action, a Jinja
 * statement or a cookiecutter variable anywhere; Python, shell and notebooks only for cookiecutter/copier
 * (a variable, or a `{{` in the path), since Python and shell often hold Jinja prompt text in strings.
 * `undefined` for a plain file. Positions are UTF-16 offsets into `text`.
 */
export function templateSyntax(path: string, text: string, format: Format): TemplateSyntax | undefined {
  if (!text.includes('{{') && !text.includes('{%')) return undefined;
  let engine: TemplateEngine | undefined;
  if (COOKIECUTTER.test(text) || path.includes('{{')) engine = 'cookiecutter';
  else if (STRUCTURED.has(format)) engine = GO_ACTION.test(text) ? 'go' : JINJA_STATEMENT.test(text) ? 'jinja' : undefined;
  if (!engine) return undefined;
  const actions: Range[] = [];
  for (const a of actionSpans(text)) {
    // `{#` is a Jinja comment only under Jinja-like engines; in Go templates it is text.
    if (text.startsWith('{#', a.start) && engine === 'go') continue;
    actions.push(a);
  }
  return actions.length > 0 ? { engine, actions } : undefined;
}

/**
 * `text` with every template action blanked: each character of an action becomes a space, line
 * breaks stay, so every offset and line of the result is the original's. A line that held only
 * `{{- if … }}` becomes blank; `key: {{ .Values.x }}` becomes `key:` with no value (absent).
 */
export function blankTemplateActions(text: string, actions: readonly Range[]): string {
  let out = '';
  let at = 0;
  for (const a of actions) {
    out += text.slice(at, a.start) + text.slice(a.start, a.end).replace(/[^\r\n]/g, ' ');
    at = a.end;
  }
  return out + text.slice(at);
}

/**
 * Keeps of an extraction from blanked template text only what is certain: settings, request sites,
 * env reads and consumer evidence that touch no action, and no parse problem (the loader never sees
 * this text; `{{- if }}`/`{{ else }}` branches repeat keys on purpose). Mutates and returns `extraction`.
 */
export function certainPartOfTemplate(extraction: Extraction, actions: readonly Range[]): Extraction {
  // An action touches `r` when it holds one of `r`'s characters (an empty `r`: the character at its
  // start). `overlapping` is inclusive at both ends, so it is asked for [start + 1, end - 1]: one
  // binary search per range (`core/range-lookup.ts`), not a scan of every action.
  const over = overlapping(actions, (a) => a);
  const touches = (r: Range | undefined) => r !== undefined && over({ start: r.start + 1, end: Math.max(r.end, r.start + 1) - 1 }).length > 0;
  extraction.settings = extraction.settings.filter((s) => !touches(s.statementRange) && !touches(s.valueRange));
  extraction.requestSites = extraction.requestSites.filter((s) => !touches(s.range));
  if (extraction.commands) extraction.commands = extraction.commands.filter((c) => !c.words.some((w) => touches(w.range)));
  extraction.parseProblems = [];
  return extraction;
}
