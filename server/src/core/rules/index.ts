import type { Rule } from './rule';
import apiKeyEmpty from './api-key-empty';
import apiKeyPlaceholder from './api-key-placeholder';
import apiKeyWhitespace from './api-key-whitespace';
import baseUrlDuplicateV1 from './base-url-duplicate-v1';
import baseUrlEndpointPath from './base-url-endpoint-path';
import baseUrlFragment from './base-url-fragment';
import baseUrlPathShape from './base-url-path-shape';
import baseUrlMissingV1 from './base-url-missing-v1';
import baseUrlQueryString from './base-url-query-string';
import baseUrlTrailingSlash from './base-url-trailing-slash';
import dotenvCommentAsValue from './dotenv-comment-as-value';
import disableDirective from './disable-directive';
import apiKeyBearerPrefix from './api-key-bearer-prefix';
import apiKeyCommitted from './api-key-committed';
import apiKeyQuoted from './api-key-quoted';
import baseUrlBindAddress from './base-url-bind-address';
import baseUrlEmpty from './base-url-empty';
import baseUrlMalformed from './base-url-malformed';
import baseUrlMissingScheme from './base-url-missing-scheme';
import baseUrlPlaceholder from './base-url-placeholder';
import dotenvDuplicateKey from './dotenv-duplicate-key';
import envLegacyName from './env-legacy-name';
import azureApiVersion from './azure-api-version';
import baseUrlLoopbackInContainer from './base-url-loopback-in-container';
import baseUrlSchemeMismatch from './base-url-scheme-mismatch';
import configStringBoolean from './config-string-boolean';
import logprobsMissing from './logprobs-missing';
import logprobsWrongType from './logprobs-wrong-type';
import modelPlaceholder from './model-placeholder';
import openclawMissingApiType from './openclaw-missing-api-type';
import proxyNoProxyCidr from './proxy-no-proxy-cidr';
import proxyNoProxyMissing from './proxy-no-proxy-missing';
import topLogprobsNull from './top-logprobs-null';
import topLogprobsOutOfRange from './top-logprobs-out-of-range';
import topLogprobsWithoutLogprobs from './top-logprobs-without-logprobs';
import parseError from './parse-error';
import skippedFile from './skipped-file';
import baseUrlProviderWebsite from './base-url-provider-website';
import baseUrlNativePath from './base-url-native-path';
import apiKeyProviderMismatch from './api-key-provider-mismatch';
import logprobsProviderUnsupported from './logprobs-provider-unsupported';
import modelNotServed from './model-not-served';
import codexProviderConfig from './codex-provider-config';
import dotenvMalformedSubstitution from './dotenv-malformed-substitution';
import apiKeyFileUnstripped from './api-key-file-unstripped';
import apiKeyServerMismatch from './api-key-server-mismatch';
import dotenvExampleDrift from './dotenv-example-drift';
import litellmModelPrefix from './litellm-model-prefix';

/**
 * The registry: the only list of rules. CLI choices, the config schema, docs and the README table
 * are generated from it or checked against it by tests.
 */
export const RULES: readonly Rule[] = [
  baseUrlDuplicateV1,
  baseUrlEndpointPath,
  baseUrlQueryString,
  baseUrlFragment,
  baseUrlPathShape,
  baseUrlTrailingSlash,
  baseUrlMissingV1,
  apiKeyPlaceholder,
  apiKeyWhitespace,
  apiKeyEmpty,
  dotenvCommentAsValue,
  baseUrlMissingScheme,
  baseUrlMalformed,
  baseUrlPlaceholder,
  baseUrlBindAddress,
  baseUrlEmpty,
  envLegacyName,
  apiKeyQuoted,
  apiKeyBearerPrefix,
  apiKeyCommitted,
  dotenvDuplicateKey,
  baseUrlLoopbackInContainer,
  baseUrlSchemeMismatch,
  azureApiVersion,
  logprobsMissing,
  topLogprobsWithoutLogprobs,
  topLogprobsOutOfRange,
  logprobsWrongType,
  topLogprobsNull,
  modelPlaceholder,
  configStringBoolean,
  proxyNoProxyMissing,
  proxyNoProxyCidr,
  openclawMissingApiType,
  baseUrlProviderWebsite,
  baseUrlNativePath,
  apiKeyProviderMismatch,
  logprobsProviderUnsupported,
  modelNotServed,
  codexProviderConfig,
  dotenvMalformedSubstitution,
  apiKeyFileUnstripped,
  apiKeyServerMismatch,
  dotenvExampleDrift,
  litellmModelPrefix,
  parseError,
  disableDirective,
  skippedFile,
];

/** Looks a rule up by id. */
export function ruleById(id: string): Rule | undefined {
  return RULES.find((r) => r.meta.id === id);
}
