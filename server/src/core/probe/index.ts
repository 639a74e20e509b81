/** The connection probe (DESIGN "Test TaoToken Connection / rollout-lint ping"): pure core, network injected. */
export { probe } from './probe';
export { chooseProbeKey, documentedOrigins, originOf, type EnvMap, type FileKey, type KeyChoice, type KeyChoiceInput } from './keys';
export { joinUrl, naiveJoin, planCalls, diagnoseUrl, urlVariants, type CallPlan, type PlannedCall, type ApiCall } from './url';
export { classifyError, classifyResponse, detectLogprobs } from './classify';
export { PROBE_MESSAGES, renderProbeMessage, renderLocalized } from './messages';
export { requestBody, requestHeaders, ANTHROPIC_VERSION } from './request';
export * from './types';
