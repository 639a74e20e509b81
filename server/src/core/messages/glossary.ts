/**
 * One Chinese term per concept, used by every surface (diagnostics, hover, code actions, the probe's
 * explanations, the CLI, the extension's commands, settings and walkthrough). API names stay as the
 * API spells them (`base URL`, `logprobs`, `top_logprobs`); everything else is Chinese. A test reads
 * every zh-CN text and fails on a term listed in `zhAvoid`.
 */
export interface GlossaryEntry {
  /** The concept, in English as the English messages say it. */
  en: string;
  /** The one Simplified Chinese term for it. */
  zh: string;
  /** Other renderings that must not appear in zh-CN texts. */
  zhAvoid: readonly string[];
}

export const GLOSSARY: readonly GlossaryEntry[] = [
  { en: 'base URL', zh: 'base URL', zhAvoid: ['基础 URL', '基础URL', '基 URL', '基地址', '基础地址', 'Base URL', '根 URL'] },
  { en: 'log probs / logprobs', zh: 'logprobs', zhAvoid: ['对数概率', 'log probs', 'log prob ', 'Log probs', '对数似然'] },
  { en: 'API key', zh: 'API 密钥', zhAvoid: ['API key', 'API Key', '秘钥', 'API 金钥'] },
  { en: 'provider', zh: '服务商', zhAvoid: ['提供商', '供应商', '提供方'] },
  { en: 'loader (dotenv)', zh: '加载器', zhAvoid: ['载入器', '装载器'] },
  { en: 'consumer (the client that reads a value)', zh: '使用方', zhAvoid: ['消费者', '消费方'] },
  { en: 'connection test / Test Connection', zh: '测试连接', zhAvoid: ['连通性测试', '连接检测'] },
  { en: 'quick fix', zh: '快速修复', zhAvoid: ['快捷修复', '快速修正'] },
  { en: 'finding / problem', zh: '问题', zhAvoid: ['发现项'] },
  { en: 'hint', zh: '提示', zhAvoid: ['暗示'] },
  { en: 'origin', zh: '源', zhAvoid: ['来源地址'] },
  { en: 'workspace', zh: '工作区', zhAvoid: ['工作空间'] },
];
