/** A row of `rollout-lint rules --json`. */
export interface RuleRowLike {
  id: string;
  summary: string;
  defaultSeverity: string;
  fixable: string | false;
  formats: readonly string[];
  docsUrl: string;
}

export declare const README_START: string;
export declare const README_END: string;
export declare const RULE_LEVELS: readonly string[];
export declare function renderRulesTable(rows: readonly RuleRowLike[]): string;
export declare function replaceRulesSection(readme: string, table: string): string;
export declare function renderRulesSchema(rows: readonly RuleRowLike[]): Record<string, unknown>;
export declare function withRulesSchema<T extends { properties: Record<string, unknown> }>(schema: T, rows: readonly RuleRowLike[]): T;
