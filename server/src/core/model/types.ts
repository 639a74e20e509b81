/**
 * The one data model every format extractor produces and every rule reads.
 *
 * Positions: every `Range` in core is a pair of UTF-16 code-unit offsets into the decoded document
 * text (a leading BOM is stripped before extraction, so offset 0 is the first character after it).
 * `start` is inclusive, `end` exclusive. Adapters convert to LSP positions or 1-based line:column.
 */

/** Half-open span `[start, end)` in UTF-16 code units, 0-based, BOM excluded. */
export interface Range {
  start: number;
  end: number;
}

/**
 * The file formats Rollout Lint understands. `shell` covers bash/sh launch scripts. `notebook` is a
 * Jupyter `.ipynb` file: its code cells are linted as Python (IPython) and findings mapped back, so
 * rules list `python`, never `notebook`. `javascript` covers JavaScript and TypeScript (`.js .mjs .cjs
 * .jsx .ts .mts .cts .tsx`): such files are read only for their env reads (`process.env.X`), so no
 * rule lists it; the rules whose verdict depends on the reader run on them for cross-file findings.
 */
export type Format = 'dotenv' | 'yaml' | 'json' | 'python' | 'shell' | 'toml' | 'notebook' | 'javascript';
/** A span in another workspace file: core offsets into that file plus 0-based LSP line/character of its ends. */
export interface FileLocation {
  /** Workspace-relative path, `/`-separated. */
  path: string;
  range: Range;
  start: { line: number; character: number };
  end: { line: number; character: number };
}


export const FORMATS: readonly Format[] = ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml', 'notebook', 'javascript'];

/** Finding severities, per DESIGN's severity table. `off` exists only in configuration. */
export type Severity = 'error' | 'warning' | 'hint';

/**
 * What a setting means to an OpenAI-compatible client (DESIGN "Roles").
 * `host`/`port` are destinations (where a client connects), never bind addresses.
 */
export type Role =
  | 'baseUrl'
  | 'host'
  | 'port'
  | 'apiKey'
  | 'header'
  | 'logprobs'
  | 'topLogprobs'
  | 'model'
  | 'proxy'
  | 'noProxy'
  | 'maxLogprobs'
  | 'apiType'
  | 'apiVersion';

/**
 * The programs that read a dotenv value, each with its own quoting and comment rules:
 * - `nodeDotenv`: npm `dotenv` `parse()` (also what Node's `--env-file` approximates)
 * - `pythonDotenv`: python-dotenv `dotenv_values()`/`load_dotenv()`
 * - `posixShell`: `set -a; . ./.env`
 * - `compose`: Docker Compose `env_file:` / `.env` interpolation (compose-go dotenv)
 * - `dockerEnvFile`: `docker run --env-file` (no quote or comment processing, value kept verbatim)
 */
export type Loader = 'nodeDotenv' | 'pythonDotenv' | 'posixShell' | 'compose' | 'dockerEnvFile';

export const LOADERS: readonly Loader[] = ['nodeDotenv', 'pythonDotenv', 'posixShell', 'compose', 'dockerEnvFile'];

/** The type of a literal value as the format's own parser reads it. `dynamic` = not a literal. */
export type ValueType = 'string' | 'number' | 'boolean' | 'null' | 'list' | 'map' | 'dynamic';

/**
 * How a setting is written, which decides how a fix inserts or rewrites it.
 * - `env`: dotenv line, shell `export K=V`/`K=V cmd`, compose `environment:` entry, JSON `env` map entry
 * - `property`: YAML/JSON key
 * - `kwarg`: Python keyword argument `f(k=v)`
 * - `dictEntry`: Python dict literal `{"k": v}` or `d["k"] = v`
 * - `assignment`: Python `NAME = v`
 * - `flag`: CLI flag `--k v` / `--k=v`
 * - `envDefault`: the default in `os.getenv("K", "default")` or `${K:-default}`
 */
export type SettingKind = 'env' | 'property' | 'kwarg' | 'dictEntry' | 'assignment' | 'flag' | 'envDefault';

/**
 * One key/value pair found in a document.
 *
 * `value` is the decoded value most readers see (quotes removed, escapes applied); it is
 * `undefined` when the value is not a literal (a variable, `${VAR}` expansion in double quotes, a call).
 * `raw` is the exact source text of the value including any quotes; `valueRange` spans `raw`,
 * `contentRange` spans the characters inside the quotes (equal to `valueRange` when unquoted).
 */
export interface Setting {
  /** The key as written: `OPENAI_BASE_URL`, `base_url`, `--base-url`, `baseUrl`. */
  key: string;
  /** Dotted location: `rollout.base_url`, `models.providers.local.baseUrl`, `OPENAI_BASE_URL`. */
  path: string;
  format: Format;
  kind: SettingKind;
  /** Filled by `resolve/roles`; extractors leave it undefined. */
  role?: Role;
  raw: string;
  value: string | undefined;
  valueType: ValueType;
  /** dotenv only: the value each loader yields (`null` = the loader drops or rejects the line). */
  loaded?: Partial<Record<Loader, string | null>>;
  keyRange: Range;
  valueRange: Range;
  contentRange: Range;
  /** Quote character around the value as written, `''` when unquoted. */
  quote: '"' | "'" | '`' | '';
  /** The whole statement/line/entry, used for insertion and suppression placement. */
  statementRange: Range;
  /**
   * Settings that travel together share a group: one provider entry in openclaw.json, one call's
   * kwargs, one command's flags, one YAML mapping, one env file. Used to pair a key with its base URL.
   */
  group: string;
  /** Shell/CLI flags: the command the flag belongs to (`python3 train.py`, `sglang.launch_server`). */
  command?: string;
  /** Python kwargs: the callee as written (`OpenAI`, `client.chat.completions.create`). */
  callee?: string;
  /**
   * Set on a setting the workspace env index imported: the value is defined in another file (`.env:3`)
   * and read here (`os.getenv("K")`); ranges are the read's. Findings on it carry no fixes.
   */
  origin?: FileLocation;
  /** True when the value came from an env var reference with a default (`os.getenv("K","d")`, `${K:-d}`). */
  envName?: string;
}

/**
 * The API a request site talks to. `other` = its URL names an endpoint of another API (TRL's
 * `/get_sequence_logprobs/`, a reward server's `/score`): OpenAI request rules do not apply to it.
 */
export type ApiKind = 'chat' | 'completions' | 'responses' | 'sglang-generate' | 'other' | 'unknown';

/**
 * How a request site is written, which decides the shape of an inserted parameter:
 * Python call kwargs, a dict literal, a YAML/JSON mapping, or CLI flags of one command.
 */
export type SiteStyle = 'kwarg' | 'dict' | 'mapping' | 'flags';

/** Where and how to insert a new parameter into a request site (for `logprobs=True` fixes). */
export interface InsertionPoint {
  /** Offset at which the new text goes. */
  offset: number;
  /** Text to put before the parameter (`, `, `,\n    `, `\n  `). */
  prefix: string;
  /** Text to put after it (usually `''`, or `,` when inserting before a neighbour). */
  suffix: string;
}

/**
 * A place that sends (or configures) a generation request: a Python call, a request-body dict, a
 * YAML/JSON sampling block, a command's flags.
 */
export interface RequestSite {
  format: Format;
  apiKind: ApiKind;
  style: SiteStyle;
  /** The call expression / dict / mapping / command, for reporting a missing parameter. */
  range: Range;
  /** Where the finding for a missing parameter is shown (the callee name, the mapping key). */
  anchorRange: Range;
  /** Parameters present on the site, keyed by canonical name (`logprobs`, `top_logprobs`, `model`). */
  params: Record<string, Setting>;
  /** True when the site is part of a rollout (DESIGN "Rollout requests"). */
  isRollout: boolean;
  /** Why `isRollout` is true, for messages and hover ("file matches **\/*rollout*\/**"). */
  rolloutReason?: string;
  /**
   * Set when the site is explicitly not a policy request although it may sit in a rollout file: it is
   * inside an evaluation, judge or reward function (`llm_judge_reward`, `eval_rollout_single`).
   */
  auxiliaryReason?: string;
  insertion?: InsertionPoint;
  /** Indentation unit and quote style of neighbours, for inserted text. */
  callee?: string;
  /** The effective endpoint when resolvable in the same file. */
  endpoint?: string;
}

/** The identifiers of the consumers DESIGN names; each joins paths onto a base URL its own way. */
export type ConsumerId = 'openai-sdk' | 'openai-responses' | 'anthropic' | 'v1-appending' | 'raw' | 'sglang-native';

/** One reader of a base URL, with the evidence that it reads it (for hover and messages). */
export interface Consumer {
  id: ConsumerId;
  /** Human words for the evidence: `OpenAI(base_url=…)`, `OPENAI_BASE_URL (openai SDK)`. */
  via: string;
  /** When the consumer is code that appends a literal path (`f"{base}/v1/chat/completions"`). */
  appendedPath?: string;
  /**
   * The operation an SDK-style client makes when it is not chat (`/embeddings` for `OpenAIEmbeddings`),
   * joined the SDK way; absent = the consumer's chat path (`CONSUMER_CHAT_PATH`).
   */
  operationPath?: string;
  /** Set when the consumer is code in another file that reads the value from the environment. */
  origin?: FileLocation;
}

/**
 * A hint from the text that a base URL is consumed a certain way, not tied to the setting itself:
 * `requests.post(f"{BASE}/v1/chat/completions")` says the variable/env `BASE` is `v1-appending`.
 * `target` names a variable (`BASE`) or an env var (`env:OPENAI_BASE_URL`).
 */
export interface ConsumerEvidence {
  target: string;
  consumer: Consumer;
  range: Range;
  /**
   * Where a setting must sit for `target` to name it: the enclosing class of a `self.x` use, the
   * enclosing function of a local name (Python). Absent = anywhere in the file (module names, env vars).
   */
  within?: Range;
}

/** An environment variable read in code (`os.getenv("K", "d")`, `${K:-d}`), for hover and consumers. */
export interface EnvRead {
  name: string;
  range: Range;
  defaultValue?: string;
}

/** A comment in the source (`# …`, `// …`), for suppression directives. `range` covers the whole comment. */
export interface Comment {
  text: string;
  range: Range;
}

/**
 * A problem the parser reported; the file still yields whatever was recoverable.
 * `kind` (absent = `syntax`): `syntax` = the text is broken for every loader (an unterminated quote,
 * a JSON/YAML syntax error); `grammar` = a tree-sitter grammar could not read a part, which valid code
 * the grammar does not cover looks like too (`${X:$N+1}` in bash); `duplicateKey` = a YAML mapping
 * repeats a key, which PyYAML and most loaders resolve (last wins). `hidden` spans the text the
 * problem keeps from being read (the ERROR node, the repeated pair), when narrower than the whole file.
 */
export interface ParseProblem {
  /** English; the parser library's own text where it gave one. */
  message: string;
  /** The same in Simplified Chinese, when the extractor wrote the text itself (library texts have none). */
  zh?: string;
  range: Range;
  kind?: 'syntax' | 'grammar' | 'duplicateKey';
  hidden?: Range;
  /** `duplicateKey`: the repeated key. */
  key?: string;
}

/** Everything one extractor pass yields for one document. */
export interface Extraction {
  settings: Setting[];
  requestSites: RequestSite[];
  consumerEvidence: ConsumerEvidence[];
  envReads: EnvRead[];
  /** Variable bindings in the same file: `BASE = "http://…"` lets `f"{BASE}/v1"` resolve. */
  bindings: Record<string, Setting>;
  comments: Comment[];
  parseProblems: ParseProblem[];
  /** YAML/JSON only: each mapping that directly holds a setting, keyed by that setting's `group`. */
  groups?: Record<string, MappingGroup>;
  /** Python only: the SDK calls in the file, which decide the path and method a base URL is requested with. */
  sdkCalls?: SdkCall[];
  /** Shell and Compose only: the commands that start a server, with their words (served model names, `workspace/servers.ts`). */
  commands?: ServerCommand[];
}

/** One word of a command: `literal` is its value after quote removal, `undefined` when it expands something (`$X`, `` `…` ``, `$(…)`). */
export interface CommandWord {
  literal: string | undefined;
  range: Range;
}

/**
 * A command that starts a server, as the extractors read it: a shell invocation whose program starts
 * a server (tree-sitter-bash words; wrappers and env prefixes removed, program first), or a Compose
 * service's `command:` (list items as YAML reads them; a string split into words by the same shell
 * grammar, as Compose splits it with shell quoting rules).
 */
export interface ServerCommand {
  words: CommandWord[];
  /** Where the command is shown: from its program word (Compose: the `command:` value) to the end of that line. */
  range: Range;
  /** Compose: the service name (other containers reach the server by it). */
  service?: string;
  /** Compose: the service's `image:` (its entrypoint runs before `words`). */
  image?: string;
}

/**
 * One SDK call or chat-model construction that decides a request: `client.completions.create(…)` →
 * `POST /completions`, `client.models.list()` → `GET /models`, `ChatOpenAI(…)` → `POST /chat/completions`.
 * Paths are the SDK-relative ones (openai-python `_client.py` resources; anthropic-python `messages`).
 */
export interface SdkCall {
  /** Which SDK family joins the path: `openai` (OpenAI, AsyncOpenAI, langchain-openai) or `anthropic`. */
  family: 'openai' | 'anthropic';
  method: 'GET' | 'POST';
  /** SDK-relative path (`/chat/completions`, `/v1/messages`). */
  path: string;
  /** The callee as written (`client.completions.create`, `ChatOpenAI`). */
  callee: string;
  range: Range;
  /** `group` of the client construction's kwargs (`call@<offset>`), when the receiver resolves to one in the file. */
  clientGroup?: string;
  /** True when that construction passes `base_url` itself (then the environment's base URL does not reach the call). */
  clientHasBaseUrl?: boolean;
  /**
   * The range of that construction's `base_url` value (`os.environ["X"]` in `OpenAI(base_url=os.environ["X"])`,
   * `process.env.X` in `new OpenAI({ baseURL: process.env.X })`): an env read inside it reaches the call.
   */
  clientBaseRange?: Range;
  /** The literal `model=` of the call (or of the chat-model construction). */
  model?: string;
}

/**
 * A YAML/JSON mapping whose scalars share one `Setting.group` (an openclaw.json provider entry), for
 * findings about the mapping as a whole (`openclaw-missing-api-type`) and fixes that add a member.
 */
export interface MappingGroup {
  /** The mapping's key (`local-vllm`, inside its quotes), or its `{` / first key when it has none. */
  anchorRange: Range;
  range: Range;
  /** After the last member, written like its neighbours. */
  insertion: InsertionPoint;
}

/** An extraction with nothing in it, for extractors to fill. */
export function emptyExtraction(): Extraction {
  return { settings: [], requestSites: [], consumerEvidence: [], envReads: [], bindings: {}, comments: [], parseProblems: [] };
}

/** A text edit in UTF-16 offsets: replace `[range.start, range.end)` with `text`. */
export interface TextEdit {
  range: Range;
  text: string;
  /**
   * For an edit of one setting's value (`valueEdit`): the decoded value the setting must have after
   * it; `lintDocument` re-extracts the edited text and drops the fix unless it does (and nothing else changed).
   */
  intendedValue?: string;
}

/**
 * `safe`: correct for every consumer of the value (fix-all and on-save apply it).
 * `unsafe`: right for the likely consumer but not provably for all; applied only on request.
 */
export type FixSafety = 'safe' | 'unsafe';

export interface Fix {
  /** Short imperative title, already localised: "Remove the duplicated /v1". */
  title: string;
  safety: FixSafety;
  edits: TextEdit[];
}

/** One problem found by a rule, before adapters turn it into a Diagnostic, a CLI line or SARIF. */
export interface Finding {
  ruleId: string;
  severity: Severity;
  messageId: string;
  /** Template data; never holds a full API key (mask with `maskSecret`). */
  data: Record<string, string | number>;
  /** The rendered, localised message. */
  message: string;
  /** Why Rollout Lint believes this, in one localised line (DESIGN "Evidence"); shown in hover and JSON. */
  evidence?: string;
  range: Range;
  fixes: Fix[];
  /**
   * What the finding is about (`setting@<offset>`, `site@<offset>`), so precedence can drop a
   * lesser finding about the same thing (DESIGN "Precedence"). Defaults to the range.
   */
  subject?: string;
  /** Other places that explain the finding (the `.env` line a read's value comes from), as LSP `relatedInformation`. */
  related?: { location: FileLocation; message: string }[];
}
