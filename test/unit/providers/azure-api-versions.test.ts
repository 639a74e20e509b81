import assert from 'node:assert/strict';
import { AZURE_OPENAI_API_VERSIONS, classifyAzureApiVersion, nearestAzureApiVersions } from '../../../server/src/core/providers/azure-api-versions';

describe('Azure OpenAI API versions', () => {
  it('the list is sorted by date, unique, and every entry is YYYY-MM-DD or YYYY-MM-DD-preview', () => {
    assert.equal(new Set(AZURE_OPENAI_API_VERSIONS).size, AZURE_OPENAI_API_VERSIONS.length);
    for (const v of AZURE_OPENAI_API_VERSIONS) assert.match(v, /^\d{4}-\d{2}-\d{2}(-preview)?$/, v);
    const dates = AZURE_OPENAI_API_VERSIONS.map((v) => v.slice(0, 10));
    assert.deepEqual(dates, [...dates].sort());
  });

  it('classifies documented, undocumented, newer, impossible and non-version values', () => {
    for (const v of ['2024-10-21', '2024-06-01', '2025-04-01-preview', '2023-05-15', 'preview', 'latest']) assert.equal(classifyAzureApiVersion(v), 'documented', v);
    for (const v of ['2023-01-01', '2024-11-01-preview', '2024-10-21-preview', '2022-12-02']) assert.equal(classifyAzureApiVersion(v), 'undocumented', v);
    for (const v of ['2026-01-01', '2025-09-01-preview']) assert.equal(classifyAzureApiVersion(v), 'newer', v);
    for (const v of ['2024-13-45', '2024-00-10', '2023-02-29', '2024-04-31', '2025-13-01-preview']) assert.equal(classifyAzureApiVersion(v), 'impossibleDate', v);
    assert.equal(classifyAzureApiVersion('2024-02-29'), 'undocumented', 'a leap day is a real date');
    for (const v of ['gpt-4o-2024-08-06', '0613', 'v1', '2024-6-1', '2024-06-01-beta', '']) assert.equal(classifyAzureApiVersion(v), 'notVersion', v);
  });

  it('names the documented versions nearest in date, the closest first', () => {
    assert.deepEqual(nearestAzureApiVersions('2023-01-01'), ['2022-12-01', '2023-03-15-preview']);
    assert.deepEqual(nearestAzureApiVersions('2024-11-01-preview'), ['2024-10-21', '2024-12-01-preview']);
    assert.deepEqual(nearestAzureApiVersions('2024-10-21', 1), ['2024-10-21']);
    assert.deepEqual(nearestAzureApiVersions('not-a-date'), []);
  });
});
