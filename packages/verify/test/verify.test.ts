// The offline verifier: what a downloaded proof must hold, and each way one may be forged or left incomplete.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson, recordText } from '../src/canonical.js';
import { verifyProof } from '../src/verify.js';
import { chain, makeKey, proofOf, rec } from './sign';

const FILE = 'file-a';
const codes = (r: ReturnType<typeof verifyProof>) => r.failures.map((f) => f.code);
const clone = <T>(v: T): T => structuredClone(v);

function honest(alg: 'Ed25519' | 'ES256' = 'Ed25519') {
  const key = makeKey(alg);
  const batches = chain(key, [
    [rec(FILE, '2026-01-02T00:00:00.000Z'), rec('file-b', '2026-01-02T00:00:10.000Z')],
    [rec('file-b', '2026-01-02T00:01:00.000Z')],
    [rec(FILE, '2026-01-02T00:02:00.000Z', 12.5, 2)],
  ]);
  return { key, batches, proof: proofOf(FILE, [{ key }], batches) };
}

describe('canonical JSON', () => {
  it('sorts keys at every depth, drops undefined members and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 'x', c: undefined, b: true }], é: null })).toBe(
      '{"a":[{"b":true,"d":"x"}],"b":1,"é":null}',
    );
  });
  it('refuses what JSON cannot hold', () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow();
    expect(() => canonicalJson({ a: 1n })).toThrow();
  });
});

describe('a proof verifies', () => {
  it.each(['Ed25519', 'ES256'] as const)('signed with %s: the records of the file, their seconds', (alg) => {
    const result = verifyProof(honest(alg).proof);
    expect(result.failures).toEqual([]);
    expect(result).toMatchObject({ ok: true, complete: true });
    expect(result.summary).toMatchObject({ keys: 1, batches: 3, records: 2, seconds: 22.5, counted: 2 });
  });

  it('across displays, each with its own key (a display paired again signs with a new one)', () => {
    const [a, b] = [makeKey(), makeKey('ES256')];
    const batches = [
      ...chain(a, [[rec(FILE, '2026-01-03T00:00:00Z')]]),
      ...chain(b, [[rec(FILE, '2026-01-04T00:00:00Z')]]),
    ];
    expect(
      verifyProof(proofOf(FILE, [{ key: a, revokedAt: '2026-01-03T12:00:00Z' }, { key: b }], batches)),
    ).toMatchObject({
      ok: true,
      complete: true,
      summary: { keys: 2, records: 2 },
    });
  });
});

describe("a video's record", () => {
  const video = { ...rec(FILE, '2026-01-02T00:03:00.000Z', 20.1), reachedSecond: 10.04 };
  it('signs the second it reached; a record without one reads as before', () => {
    expect(recordText(video)).toContain('"reachedSecond":10.04');
    const { reachedSecond: _, ...page } = video;
    expect(recordText(page)).toBe(
      canonicalJson({ id: page.id, fileId: FILE, page: 1, startedAt: page.startedAt, seconds: 20.1 }),
    );
  });
  it('verifies as signed, and not once its reached second is changed', () => {
    const key = makeKey();
    const proof = proofOf(FILE, [{ key }], chain(key, [[video]]));
    expect(verifyProof(proof)).toMatchObject({ ok: true });
    const moved = clone(proof);
    (moved.records[0] as { record: { reachedSecond: number } }).record.reachedSecond = 3;
    expect(codes(verifyProof(moved))).toEqual(['record-altered']);
  });
});

describe('a proof does not verify', () => {
  it("when one record's seconds are changed", () => {
    const proof = clone(honest().proof);
    (proof.records[1] as { record: { seconds: number } }).record.seconds = 13;
    const result = verifyProof(proof);
    expect(result.ok).toBe(false);
    expect(codes(result)).toEqual(['record-altered']);
  });

  it('when a batch is altered (a digest swapped, a date moved) or signed by another key', () => {
    const { proof } = honest();
    const swapped = clone(proof);
    swapped.batches[1]?.records.push('AAAA');
    expect(codes(verifyProof(swapped))).toContain('batch-signature');
    const moved = clone(proof);
    (moved.batches[0] as { sentAt: string }).sentAt = '2026-01-01T00:00:00.000Z';
    expect(codes(verifyProof(moved))).toContain('batch-signature');
    const other = makeKey();
    const forged = clone(proof);
    (forged.batches[0] as { signature: string }).signature = chain(other, [[]])[0]?.signature as string;
    expect(codes(verifyProof(forged))).toContain('batch-signature');
  });

  it('when a key is not what its id says', () => {
    const proof = clone(honest().proof);
    (proof.keys[0] as { jwk: { x: string } }).jwk.x = makeKey().jwk.x;
    expect(codes(verifyProof(proof))).toContain('key-id');
  });

  it('when a batch is dated after its key was revoked', () => {
    const { key, batches } = honest();
    const result = verifyProof(proofOf(FILE, [{ key, revokedAt: '2026-01-01T23:00:00.000Z' }], batches));
    expect(result.ok).toBe(false);
    expect(codes(result)).toContain('after-revocation');
    expect(result.summary.records).toBe(0);
  });

  it('when a record is of another file or outside the period', () => {
    const { key, batches } = honest();
    const late = proofOf(FILE, [{ key }], batches, { from: '2026-01-01', to: '2026-01-01' });
    expect(codes(verifyProof(late))).toEqual(['record-period', 'record-period']);
    const other = clone(honest().proof);
    other.scope.fileId = 'file-b';
    expect(codes(verifyProof(other))).toEqual(['record-file', 'record-file']);
  });

  it('when two different batches hold one place in a chain (a fork) or a batch does not follow its predecessor', () => {
    const { key, batches, proof } = honest();
    const fork = chain(key, [[rec(FILE, '2026-01-02T00:00:00Z')]])[0];
    const forked = clone(proof);
    forked.batches.push({ ...(fork as NonNullable<typeof fork>), arrival: 'in-order' });
    expect(codes(verifyProof(forked))).toContain('chain-fork');
    // batch 2 re-signed with the hash of another first batch: a chain rebuilt from a different history
    const rebuilt = chain(key, [[rec('file-b', '2026-01-02T00:00:00Z')], batches[1]?.plays ?? []]);
    const broken = clone(proof);
    broken.batches[1] = {
      ...(({ hash: _h, plays: _p, ...b }) => b)(rebuilt[1] as NonNullable<(typeof rebuilt)[1]>),
      arrival: 'in-order',
    };
    expect(codes(verifyProof(broken))).toContain('chain-broken');
  });
});

describe('an incomplete proof', () => {
  it('reports a missing batch: its signatures hold, its chain has a hole', () => {
    const proof = clone(honest().proof);
    proof.batches.splice(1, 1);
    const result = verifyProof(proof);
    expect(result).toMatchObject({ ok: true, complete: false });
    expect(result.gaps.map((g) => [g.code, g.seq])).toEqual([['chain-gap', 2]]);
  });

  it("reports the service's note of a batch that arrived after a later one", () => {
    const proof = clone(honest().proof);
    (proof.batches[1] as { arrival: string }).arrival = 'late';
    expect(verifyProof(proof).notes.map((n) => n.code)).toEqual(['arrived-late']);
  });
});

describe('pagecast-verify (the command)', () => {
  const bin = join(import.meta.dirname, '../bin/pagecast-verify.js');
  const run = (proof: unknown) => {
    const path = join(mkdtempSync(join(tmpdir(), 'proof-')), 'proof.json');
    writeFileSync(path, JSON.stringify(proof));
    try {
      return { code: 0, out: execFileSync(process.execPath, [bin, path], { encoding: 'utf8', stdio: 'pipe' }) };
    } catch (err) {
      const e = err as { status: number; stderr: string };
      return { code: e.status, out: e.stderr };
    }
  };
  it('exits 0 with a summary when valid, 1 with what failed when altered, 2 when a batch is missing', () => {
    const { proof } = honest();
    const valid = run(proof);
    expect(valid.code).toBe(0);
    expect(valid.out).toContain('2 signed record(s), 22.5 s claimed');
    expect(valid.out).toContain('VALID');
    const altered = clone(proof);
    (altered.records[0] as { record: { seconds: number } }).record.seconds = 11;
    const bad = run(altered);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('FAIL [record-altered]');
    const holed = clone(proof);
    holed.batches.splice(1, 1);
    expect(run(holed).code).toBe(2);
    expect(run('not a proof').code).toBe(1);
  });
});
