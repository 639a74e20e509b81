import { defineRule } from './rule';
import { isExampleFile, shorten, subjectOf } from './util';

/**
 * Model names copied from a template and never replaced: `MODEL_ID`, `your-model`, `<model>`,
 * `model-name`, `YOUR_MODEL`, `{{model}}`. (`my-model` is left alone: it is a common real
 * `--served-model-name`.)
 */
const PLACEHOLDER = /^(?:<[^<>]*>|\{\{\s*[\w.-]*\s*\}\}|\[\s*model[\w -]*\]|your[-_ ]?(?:own[-_ ]?)?model(?:[-_ ]?(?:name|id|here))?|model[-_ ]?(?:name|id)(?:[-_ ]?here)?|(?:insert|enter|put)[-_ ]?(?:your[-_ ]?)?model(?:[-_ ]?(?:name|id))?[-_ ]?(?:here)?|x{3,}|changeme|replace[-_ ]?me|todo)$/i;

/** True when a model value is a template placeholder. */
export function isModelPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value.trim());
}

/**
 * A model-role value (`model`, `*_MODEL`, `MODEL_ID`, `served_model_name`, `--model`) that is a
 * placeholder: the server answers 404 `model_not_found` (OpenAI error codes) or, for some
 * OpenAI-compatible servers, 400. Example/template files are exempt. `os.getenv("M", "<default>")`
 * defaults are left alone (the variable is meant to be set).
 */
export default defineRule({
  meta: {
    id: 'model-placeholder',
    title: 'Model name is a placeholder (MODEL_ID, your-model, <model>)',
    defaultSeverity: 'error',
    formats: ['dotenv', 'yaml', 'json', 'python', 'shell', 'toml'],
    fixable: false,
  },
  messages: {
    en: {
      placeholder: '{key} is the placeholder "{value}"; the server will answer model_not_found (404) for every request. Use the served model name (GET /v1/models lists it)',
    },
    'zh-CN': {
      placeholder: '{key} 仍是占位符 "{value}"；服务器会对每个请求返回 model_not_found（404）。请填入实际提供的模型名（GET /v1/models 可列出）',
    },
  },
  check({ document, resolution, report }) {
    if (isExampleFile(document.path)) return;
    for (const setting of resolution.byRole('model')) {
      if (setting.kind === 'envDefault' || setting.valueType !== 'string' || setting.value === undefined) continue;
      if (!isModelPlaceholder(setting.value)) continue;
      report({
        messageId: 'placeholder',
        data: { key: setting.key, value: shorten(setting.value.trim(), 60) },
        range: setting.contentRange,
        subject: subjectOf(setting),
      });
    }
  },
});
