import { pathToFileURL } from 'node:url';
import { plainText, ruleDoc } from '../../node/rule-docs';
import type { Finding, Range, Severity } from '../../core/model/types';
import { LineIndex } from '../../core/positions';
import { RULES } from '../../core/rules/index';
import { docsUrl, REPOSITORY_URL } from '../../core/docs';
import { VERSION } from '../version';
import { rootRelativePath, type Formatter } from './types';
import { visibleFindings } from './visible';
import { relatedPlaces, type RelatedPlace } from './related';
import { FINGERPRINT_KEY, fingerprintsOf } from '../fingerprint';

/**
 * GitHub code scanning's `properties.precision` by default severity, from DESIGN's evidence levels:
 * an error is provable from what the files say, a warning needs a known provider or client, a hint is plausible.
 */
const PRECISION: Record<Severity, 'very-high' | 'high' | 'medium'> = { error: 'very-high', warning: 'high', hint: 'medium' };

/** Rule families by id prefix, for `properties.tags` (code scanning filters by tag). */
const FAMILIES: [RegExp, string][] = [
  [/^base-url-/, 'base-url'],
  [/^api-key-/, 'api-key'],
  [/^(top-)?logprobs-/, 'logprobs'],
  [/^(dotenv|env|config)-/, 'config-syntax'],
  [/^proxy-/, 'proxy'],
  [/^(model|openclaw|azure)-/, 'provider-config'],
];

/** `properties.tags` of a rule: `rollout-config`, its family, and `security` for the key rules that guard secrets. */
export function ruleTags(id: string): string[] {
  const family = FAMILIES.find(([re]) => re.test(id))?.[1] ?? 'tool';
  return ['rollout-config', family, ...(id === 'api-key-committed' ? ['security'] : [])];
}

/** The schema a SARIF log names (OASIS SARIF 2.1.0, errata 01). */
export const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** The `uriBaseId` of every artifact location: the workspace root (GitHub code scanning's convention). */
export const SRCROOT = '%SRCROOT%';

type SarifLevel = 'error' | 'warning' | 'note';

interface SarifRegion {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

const LEVELS: Record<Severity, SarifLevel> = { error: 'error', warning: 'warning', hint: 'note' };

/** A relative path as a URI reference: each segment percent-encoded, `/` kept. */
function uriOf(relPath: string): string {
  return relPath.split('/').map(encodeURIComponent).join('/');
}

/** SARIF region: 1-based lines, 1-based UTF-16 columns, `endColumn` just past the last character. */
function regionOf(range: Range, index: LineIndex): SarifRegion {
  const s = index.positionAt(range.start);
  const e = index.positionAt(range.end);
  return { startLine: s.line + 1, startColumn: s.character + 1, endLine: e.line + 1, endColumn: e.character + 1 };
}

/** A `%SRCROOT%`-relative artifact location, or an absolute `file:` URI for a file outside the root. */
function artifactOf(path: string): { uri: string; uriBaseId?: string } {
  return path.startsWith('/') ? { uri: pathToFileURL(path).href } : { uri: uriOf(path), uriBaseId: SRCROOT };
}

/** `shortDescription`, `fullDescription` and `help` of a rule, from its docs page when the page is there. */
function ruleTexts(id: string, title: string): Record<string, unknown> {
  const doc = ruleDoc(id);
  if (!doc) return { shortDescription: { text: title } };
  return {
    shortDescription: { text: title },
    fullDescription: { text: plainText(doc.catches), markdown: doc.catches },
    help: { text: doc.markdown, markdown: doc.markdown },
  };
}

/** SARIF `relatedLocations` (§3.27.22): each with its `id`, a region and the place's own message. */
function relatedLocationsOf(places: readonly RelatedPlace[]): Record<string, unknown>[] {
  return places.map((p, id) => ({
    id,
    physicalLocation: { artifactLocation: artifactOf(p.path), region: { startLine: p.line, startColumn: p.column, endLine: p.endLine, endColumn: p.endColumn } },
    message: { text: p.message },
  }));
}

function resultOf(f: Finding, relPath: string, index: LineIndex | undefined, related: readonly RelatedPlace[], fingerprint: string, ruleIndex: number): Record<string, unknown> {
  const artifactLocation = artifactOf(relPath);
  const physicalLocation: Record<string, unknown> = { artifactLocation };
  if (index) physicalLocation.region = regionOf(f.range, index);
  const result: Record<string, unknown> = {
    ruleId: f.ruleId,
    ruleIndex,
    level: LEVELS[f.severity],
    message: { text: f.message },
    locations: [{ physicalLocation }],
    // The content fingerprint `--baseline` keys on: GitHub matches alerts across commits by it (§3.27.17).
    partialFingerprints: { [FINGERPRINT_KEY]: fingerprint },
  };
  if (related.length) result.relatedLocations = relatedLocationsOf(related);
  const fixes = index ? f.fixes.filter((x) => x.edits.length > 0) : [];
  if (fixes.length) {
    result.fixes = fixes.map((x) => ({
      description: { text: x.title },
      artifactChanges: [
        {
          artifactLocation,
          replacements: [...x.edits]
            .sort((a, b) => a.range.start - b.range.start)
            .map((e) => ({ deletedRegion: regionOf(e.range, index!), insertedContent: { text: e.text } })),
        },
      ],
      properties: { safety: x.safety },
    }));
  }
  return result;
}

/**
 * SARIF 2.1.0 log with one run: `tool.driver.rules` lists the registered rules the results name, in
 * registry order, as ESLint's SARIF formatter does (each rule's help is its whole docs page, so listing
 * all 48 made a two-file log 491 KB); each rule has `helpUri` = its
 * docs page; `fullDescription` = its "What it catches", `help` = the whole page, as GitHub code
 * scanning shows them), results carry 1-based regions in UTF-16 code units (`columnKind: "utf16CodeUnits"`,
 * line breaks `\r\n`, `\n` and `\r` as the engine counts them) and fixes as
 * `artifactChanges`/`replacements`, each marked `properties.safety`; `Finding.related` places (the
 * `.env` line a read's value comes from, the reads of a definition) become `relatedLocations`. Each
 * result carries `partialFingerprints` (the `--baseline` content fingerprint); each rule
 * `properties.tags` and `properties.precision` (GitHub code scanning's filters). Artifact URIs are relative to
 * `%SRCROOT%` (`input.root`, the repository); the log records no absolute local path, so GitHub
 * resolves `%SRCROOT%` to its checkout.
 */
export const formatSarif: Formatter = (input) => {
  const shown = input.results
    .filter((r) => !r.notCandidate)
    .map((r) => ({ r, findings: visibleFindings(r.findings, input) }));
  const named = new Set(shown.flatMap(({ findings }) => findings.map((f) => f.ruleId)));
  const rules = RULES.filter((r) => named.has(r.meta.id));
  const ruleIndex = new Map(rules.map((r, i) => [r.meta.id, i]));
  const results = shown.flatMap(({ r, findings }) => {
    const index = r.text !== undefined && findings.length > 0 ? new LineIndex(r.text) : undefined;
    const prints = new Map(fingerprintsOf(r.findings, r.text).map((p, i) => [r.findings[i], p]));
    return findings.map((f) => resultOf(f, rootRelativePath(r, input.root), index, relatedPlaces(r, f, input.root), prints.get(f)!, ruleIndex.get(f.ruleId) ?? -1));
  });
  const failures = input.results.flatMap((r) => r.failures.map((f) => ({ relPath: rootRelativePath(r, input.root), ...f })));
  const log = {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'Rollout Lint',
            version: VERSION,
            semanticVersion: VERSION,
            informationUri: REPOSITORY_URL,
            rules: rules.map((r) => ({
              id: r.meta.id,
              ...ruleTexts(r.meta.id, r.meta.title),
              helpUri: docsUrl(r.meta.id),
              defaultConfiguration: { level: LEVELS[r.meta.defaultSeverity] },
              properties: { tags: ruleTags(r.meta.id), precision: PRECISION[r.meta.defaultSeverity], fixable: r.meta.fixable || 'no', formats: [...r.meta.formats] },
            })),
          },
        },
        invocations: [
          {
            executionSuccessful: failures.length === 0,
            toolExecutionNotifications: failures.map((f) => ({
              level: 'error',
              message: { text: `internal error in ${f.ruleId}: ${f.error.split('\n')[0]}` },
              locations: [{ physicalLocation: { artifactLocation: artifactOf(f.relPath) } }],
            })),
          },
        ],
        originalUriBaseIds: { [SRCROOT]: { description: { text: 'The root of the repository (the git work tree holding the folder Rollout Lint ran in)' } } },
        columnKind: 'utf16CodeUnits',
        newlineSequences: ['\r\n', '\n', '\r'],
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
};
