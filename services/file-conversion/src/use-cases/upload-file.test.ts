import { describe, expect, it } from 'vitest';
import { jobId } from './upload-file';

// A conversion job's message id must be the same for the same file and attempt across an upgrade too (JetStream
// drops a repeat by it), so the derivation (SHA-256 of "<file>:<attempt>") is pinned here.
describe('jobId', () => {
  it.each([
    ['0b7c2f1e-4a5d-4f7e-9a38-1c2d3e4f5a6b', 1, 'dd99bd1f-6e3f-4092-8974-eb50a874d2a9'],
    ['0b7c2f1e-4a5d-4f7e-9a38-1c2d3e4f5a6b', 2, 'bdfe9206-c2b8-4ac9-880b-75bcae94dde2'],
  ])('gives %s, attempt %i, the id it has always had', (fileId, attempt, id) => {
    expect(jobId(fileId, attempt)).toBe(id);
  });
});
