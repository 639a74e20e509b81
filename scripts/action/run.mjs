#!/usr/bin/env node
// Step 2 of action.yml: lints once and writes everything from that one run.
//
// Runs `rollout-lint [INPUT_ARGS] --format sarif --output-file <sarif> -- [INPUT_PATHS]` once, then from
// that SARIF log: the text report in the log, workflow-command annotations (INPUT_ANNOTATE=true),
// and a job summary ($GITHUB_STEP_SUMMARY: counts per rule, the first findings). GitHub shows at most
// 10 annotations of each type (error, warning, notice) per step and 50 per job
// (docs.github.com, "Workflow commands": annotation limits), so at most 10 of each type are
// written, and a notice says how many more there are and where to find them.
// Outputs (GITHUB_OUTPUT): exit-code (the CLI's), sarif-file (when the log was written), upload
// ("true" when the SARIF upload should run: INPUT_UPLOAD_SARIF "true", or "auto" unless the event is
// a pull request from a fork or by Dependabot, whose token cannot write security events).
// Exits 0 itself so the upload still runs; the action's last step fails the job.
// No dependencies: only Node's standard library (the runner's node, ≥ 20.19).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const env = process.env;
/** GitHub's limit of annotations of one type per step. */
export const ANNOTATIONS_PER_TYPE = 10;
/** Findings listed in the job summary. */
const SUMMARY_FINDINGS = 20;

const split = (s) => (s ?? '').split(/\s+/).filter(Boolean);
const paths = split(env.INPUT_PATHS);
/** The action chooses the format and the output file itself: those options in INPUT_ARGS are dropped with a warning. */
const OWN = new Set(['-f', '--format', '--output-format', '-o', '--output-file']);
const extra = [];
for (let i = 0, args = split(env.INPUT_ARGS); i < args.length; i++) {
  const [name] = args[i].split('=');
  if (!OWN.has(name)) extra.push(args[i]);
  else {
    if (!args[i].includes('=')) i++;
    console.log(`::warning title=rollout-lint::${name} in args is ignored: the action writes text, annotations, a job summary and SARIF from one run`);
  }
}
const sarifFile = env.INPUT_SARIF_FILE || 'rollout-lint.sarif';
const output = (key, value) => env.GITHUB_OUTPUT && appendFileSync(env.GITHUB_OUTPUT, `${key}=${value}\n`);

/** Workflow-command escaping (@actions/core escapeData / escapeProperty). */
const escapeData = (s) => String(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
/** Control characters out (the CLI masks keys; a linted file's bytes still must not reach the log raw). */
const clean = (s) => String(s).replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '').replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, '');
/**
 * Markdown table cell: no pipes, no HTML, one line, and no Markdown from the repository: a file name or
 * a model name such as `![x](https://tracker/p.png)` or `[update](https://…)` would otherwise render as an
 * image or a link in the job summary, so link, image and emphasis punctuation is backslash-escaped.
 */
const plain = (s) => clean(s).replace(/[\r\n]+/g, ' ').replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/`/g, "'");
const cell = (s) => plain(s).replace(/[[\]()!*_~#]/g, (c) => `\\${c}`);

/** Whether this event's token may upload SARIF: not a pull request from a fork, not Dependabot. Returns [ok, reason]. */
export function uploadAllowed(e = env) {
  const mode = (e.INPUT_UPLOAD_SARIF ?? 'auto').toLowerCase();
  if (mode === 'false') return [false, 'upload-sarif is false'];
  if (mode === 'true') return [true, ''];
  if (e.GITHUB_ACTOR === 'dependabot[bot]') return [false, 'Dependabot runs get a read-only token'];
  if (e.GITHUB_EVENT_NAME === 'pull_request' || e.GITHUB_EVENT_NAME === 'pull_request_review' || e.GITHUB_EVENT_NAME === 'pull_request_review_comment') {
    let event = {};
    try {
      event = JSON.parse(readFileSync(e.GITHUB_EVENT_PATH, 'utf8'));
    } catch {
      return [false, 'the pull request event file cannot be read'];
    }
    const head = event.pull_request?.head?.repo?.full_name;
    const base = event.pull_request?.base?.repo?.full_name ?? event.repository?.full_name;
    if (!head || head !== base) return [false, `the pull request comes from the fork ${head ?? '(deleted)'}, whose token cannot write security events`];
  }
  return [true, ''];
}

function main() {
  const cli = env.INPUT_CLI;
  const run = spawnSync(process.execPath, [cli, ...extra, '--format', 'sarif', '--output-file', sarifFile, '--', ...(paths.length ? paths : ['.'])], { stdio: ['ignore', 'inherit', 'inherit'] });
  const code = run.status ?? 2;
  output('exit-code', code);
  if (code === 2 || !existsSync(sarifFile)) {
    output('sarif-file', '');
    output('upload', 'false');
    return;
  }
  const log = JSON.parse(readFileSync(sarifFile, 'utf8'));
  const sarifRun = log.runs[0];
  const rules = sarifRun.tool.driver.rules;
  const findings = sarifRun.results.map((r) => {
    const loc = r.locations?.[0]?.physicalLocation ?? {};
    const region = loc.region ?? {};
    return { rule: r.ruleId, level: r.level, path: decodeURIComponent(loc.artifactLocation?.uri ?? ''), line: region.startLine, col: region.startColumn, endLine: region.endLine, endColumn: region.endColumn, message: clean(r.message.text), fixable: (r.fixes ?? []).some((f) => f.properties?.safety === 'safe') };
  });

  // 1. The text report (the same lines as the CLI's text format, without the source excerpts). It holds
  // file names and messages from the repository: between `::stop-commands::` and a random end token
  // (GitHub "Stopping and starting workflow commands") none of its lines can act as a workflow command.
  const oneLine = (text) => text.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  const token = `rollout-lint-${randomBytes(16).toString('hex')}`;
  console.log(`::stop-commands::${token}`);
  const words = { error: 'error', warning: 'warning', note: 'hint' };
  for (const f of findings) console.log(`${oneLine(f.path)}:${f.line ?? 1}:${f.col ?? 1}: ${words[f.level] ?? f.level}: ${f.message.replace(/\n/g, ' ')} [${f.rule}]${f.fixable ? ' [*]' : ''}`);
  const count = (level) => findings.filter((f) => f.level === level).length;
  const errors = count('error');
  const warnings = count('warning');
  const hints = count('note');
  console.log(findings.length ? `\n✖ ${findings.length} problem${findings.length === 1 ? '' : 's'} (${errors} errors, ${warnings} warnings${hints ? `, ${hints} hints` : ''})` : 'No problems found.');
  console.log(`::${token}::`);

  // 2. Annotations, at most 10 per type.
  const commands = { error: 'error', warning: 'warning', note: 'notice' };
  if ((env.INPUT_ANNOTATE ?? 'true') === 'true') {
    const left = {};
    const written = {};
    for (const f of findings) {
      const type = commands[f.level] ?? 'notice';
      written[type] = (written[type] ?? 0) + 1;
      if (written[type] > ANNOTATIONS_PER_TYPE) {
        left[type] = (left[type] ?? 0) + 1;
        continue;
      }
      const props = [['file', f.path]];
      if (f.line) {
        props.push(['line', f.line]);
        if (f.line === f.endLine) props.push(['col', f.col]);
        props.push(['endLine', f.endLine ?? f.line]);
        if (f.line === f.endLine) props.push(['endColumn', f.endColumn]);
      }
      props.push(['title', f.rule]);
      console.log(`::${type} ${props.map(([k, v]) => `${k}=${escapeProperty(v)}`).join(',')}::${escapeData(f.message)}`);
    }
    const more = Object.entries(left).map(([type, n]) => `${n} more ${type}${n === 1 ? '' : 's'}`);
    if (more.length) console.log(`::notice title=rollout-lint::${escapeData(`${more.join(', ')} not annotated (GitHub shows ${ANNOTATIONS_PER_TYPE} per type per step); all are in the log above, the job summary counts and the SARIF file ${sarifFile}`)}`);
  }

  // 3. The job summary.
  const [upload, why] = uploadAllowed();
  if (env.GITHUB_STEP_SUMMARY) {
    const perRule = new Map();
    for (const f of findings) perRule.set(f.rule, (perRule.get(f.rule) ?? 0) + 1);
    const lines = ['## Rollout Lint', ''];
    if (findings.length === 0) lines.push('No problems found.');
    else {
      lines.push(`**${findings.length}** problem${findings.length === 1 ? '' : 's'}: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}${hints ? `, ${hints} hint${hints === 1 ? '' : 's'}` : ''}.`, '');
      lines.push('| Rule | Level | Count |', '| --- | --- | ---: |');
      for (const [rule, n] of [...perRule].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
        const meta = rules.find((r) => r.id === rule);
        const level = findings.find((f) => f.rule === rule).level;
        lines.push(`| ${meta?.helpUri ? `[${cell(rule)}](${meta.helpUri})` : cell(rule)} | ${cell(words[level] ?? level)} | ${n} |`);
      }
      lines.push('', `First ${Math.min(SUMMARY_FINDINGS, findings.length)} of ${findings.length}:`, '', '| Where | Rule | Message |', '| --- | --- | --- |');
      for (const f of findings.slice(0, SUMMARY_FINDINGS)) lines.push(`| ${cell(`${f.path}:${f.line ?? 1}`)} | ${cell(f.rule)} | ${cell(f.message)} |`);
    }
    lines.push('', upload ? `SARIF: \`${plain(sarifFile)}\` (uploaded to code scanning).` : `SARIF: \`${plain(sarifFile)}\` (not uploaded: ${cell(why)}).`, '');
    appendFileSync(env.GITHUB_STEP_SUMMARY, `${lines.join('\n')}\n`);
  }
  if (!upload && (env.INPUT_UPLOAD_SARIF ?? 'auto') !== 'false') console.log(`::notice title=rollout-lint::${escapeData(`SARIF not uploaded to code scanning: ${why}. The findings are in the log, the annotations and the job summary.`)}`);
  output('sarif-file', sarifFile);
  output('upload', String(upload));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
