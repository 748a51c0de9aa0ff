import type { AuditEntry } from '@pagecast/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  auditDiff,
  type ChainedEntry,
  canonicalJson,
  chainHash,
  GENESIS_HASH,
  nextLink,
  verifyChain,
} from './audit-chain';

type Row = ChainedEntry & { prevHash: string; hash: string };

const entry = (n: number, over: Partial<AuditEntry> = {}): AuditEntry => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  workspaceId: 'ws1',
  actorUserId: `user${n % 3}`,
  address: '203.0.113.7',
  action: 'file.updated',
  object: { type: 'file', id: `f${n}` },
  before: { title: `old ${n}`, tags: ['a'] },
  after: { title: `new ${n}`, tags: ['a', 'b'] },
  at: new Date(Date.UTC(2026, 11, 6, 0, 0, n)).toISOString(),
  ...over,
});

function chain(n: number): Row[] {
  const rows: Row[] = [];
  for (let i = 1; i <= n; i++) rows.push(nextLink(rows[rows.length - 1] ?? null, entry(i)));
  return rows;
}

describe('canonicalJson', () => {
  it('sorts keys at every level and drops undefined members, so field order never changes the text', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
    expect(canonicalJson({ at: new Date('2026-12-06T00:00:00Z') })).toBe('{"at":"2026-12-06T00:00:00.000Z"}');
  });

  it('refuses values JSON would turn into something else', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow();
    expect(() => canonicalJson({ n: Number.POSITIVE_INFINITY })).toThrow();
  });

  it('is the same for any value and its JSON round trip with shuffled keys', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const reparsed = JSON.parse(JSON.stringify(v)) as unknown;
        expect(canonicalJson(reparsed)).toBe(canonicalJson(v));
        expect(JSON.parse(canonicalJson(v))).toEqual(reparsed);
      }),
    );
  });
});

describe('the chain', () => {
  it('starts from the genesis hash and links each entry to the previous hash', () => {
    const rows = chain(3);
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(rows[0]?.prevHash).toBe(GENESIS_HASH);
    expect(rows[1]?.prevHash).toBe(rows[0]?.hash);
    expect(rows[2]?.hash).toBe(chainHash(rows[1]?.hash as string, rows[2] as Row));
    expect(rows[0]?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyChain(rows)).toEqual({ ok: true, length: 3, head: rows[2]?.hash });
    expect(verifyChain([])).toEqual({ ok: true, length: 0, head: GENESIS_HASH });
  });

  it('names the first broken link of an edited entry', () => {
    const rows = chain(5);
    rows[2] = { ...(rows[2] as Row), after: { title: 'forged', tags: ['a', 'b'] } };
    expect(verifyChain(rows)).toMatchObject({ ok: false, broken: { position: 3, seq: 3, reason: 'hash' } });
  });

  it('names a removed entry, an inserted one and a swap', () => {
    const removed = chain(5).filter((r) => r.seq !== 2);
    expect(verifyChain(removed)).toMatchObject({ ok: false, broken: { position: 2, seq: 3, reason: 'seq' } });
    const swapped = chain(5);
    [swapped[1], swapped[3]] = [swapped[3] as Row, swapped[1] as Row];
    expect(verifyChain(swapped)).toMatchObject({ ok: false, broken: { position: 2, reason: 'seq' } });
    // a forged row renumbered and rehashed in place still does not follow its predecessor
    const rows = chain(4);
    const forged = nextLink({ seq: 1, hash: 'f'.repeat(64) }, entry(99));
    rows[1] = forged;
    expect(verifyChain(rows)).toMatchObject({ ok: false, broken: { position: 2, reason: 'prev-hash' } });
  });

  it('catches removed newest entries only against a head noted before', () => {
    const rows = chain(4);
    const head = { length: 4, head: (rows[3] as Row).hash };
    expect(verifyChain(rows, head).ok).toBe(true);
    expect(verifyChain(rows.slice(0, 3)).ok).toBe(true);
    expect(verifyChain(rows.slice(0, 3), head)).toMatchObject({ ok: false, broken: { reason: 'truncated' } });
  });

  // Property: any single edit of a hashed field, removal (of any but the newest), insertion or reordering is named.
  const mutation = fc.oneof(
    fc.record({
      kind: fc.constant('edit' as const),
      field: fc.constantFrom('id', 'workspaceId', 'seq', 'actorUserId', 'address', 'action', 'before', 'after', 'at'),
    }),
    fc.record({ kind: fc.constant('edit-hash' as const) }),
    fc.record({ kind: fc.constant('remove' as const) }),
    fc.record({ kind: fc.constant('insert' as const) }),
    fc.record({ kind: fc.constant('swap' as const), other: fc.nat() }),
  );

  it('detects every edit, deletion, insertion and reordering (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 12 }), fc.nat(), mutation, fc.jsonValue(), (n, at, m, junk) => {
        const rows = chain(n);
        const i = at % n;
        const row = rows[i] as Row;
        switch (m.kind) {
          case 'edit': {
            const changed: Record<string, unknown> = { ...row };
            const value = changed[m.field];
            let next: unknown;
            if (m.field === 'seq') next = row.seq + 1;
            else if (m.field === 'action') next = row.action === 'file.updated' ? 'file.deleted' : 'file.updated';
            else if (m.field === 'before' || m.field === 'after') next = { ...(value as object), extra: junk ?? 0 };
            else next = `${String(value)}x`;
            changed[m.field] = next;
            rows[i] = changed as unknown as Row;
            break;
          }
          case 'edit-hash':
            rows[i] = { ...row, hash: row.hash.replace(/^./, (c) => (c === '0' ? '1' : '0')) };
            break;
          case 'remove':
            // the newest one is covered by the head test above: here any other
            rows.splice(Math.min(i, n - 2), 1);
            break;
          case 'insert':
            rows.splice(i, 0, nextLink(i === 0 ? null : (rows[i - 1] as Row), entry(1000 + i)));
            break;
          case 'swap': {
            const j = (i + 1 + (m.other % (n - 1))) % n;
            [rows[i], rows[j]] = [rows[j] as Row, rows[i] as Row];
            break;
          }
        }
        const verdict = verifyChain(rows);
        expect(verdict.ok).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('names the earliest altered position (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.nat(), (n, at) => {
        const rows = chain(n);
        const i = at % n;
        rows[i] = { ...(rows[i] as Row), address: '198.51.100.1' };
        const verdict = verifyChain(rows);
        expect(verdict).toMatchObject({ ok: false, broken: { position: i + 1, reason: 'hash' } });
      }),
    );
  });
});

describe('auditDiff', () => {
  it('lists only the changed values, nested, with the value on each side', () => {
    const before = { title: 'a', settings: { rotation: 0, hours: { mon: [9, 17] } }, tags: ['x'], same: 1 };
    const after = { title: 'b', settings: { rotation: 90, hours: { mon: [9, 17] } }, tags: ['x', 'y'], same: 1 };
    expect(auditDiff(before, after)).toEqual([
      { path: ['settings', 'rotation'], before: 0, after: 90 },
      { path: ['tags'], before: ['x'], after: ['x', 'y'] },
      { path: ['title'], before: 'a', after: 'b' },
    ]);
  });

  it('shows a member that appeared or went, and a creation or deletion member by member', () => {
    expect(auditDiff({ a: 1 }, { b: 2 })).toEqual([
      { path: ['a'], before: 1, after: undefined },
      { path: ['b'], before: undefined, after: 2 },
    ]);
    expect(auditDiff(null, { title: 't' })).toEqual([{ path: ['title'], before: undefined, after: 't' }]);
    expect(auditDiff({ title: 't' }, null)).toEqual([{ path: ['title'], before: 't', after: undefined }]);
    expect(auditDiff({ a: { b: 1 } }, { a: null })).toEqual([{ path: ['a'], before: { b: 1 }, after: null }]);
  });

  it("names a member one side lacks even when Object.prototype has one of that name (fast-check's counterexample)", () => {
    expect(auditDiff({}, { toString: false })).toEqual([{ path: ['toString'], before: undefined, after: false }]);
    expect(auditDiff({ constructor: 1 }, {})).toEqual([{ path: ['constructor'], before: 1, after: undefined }]);
  });

  it('is empty exactly when both sides are the same JSON (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        expect(auditDiff(a, JSON.parse(JSON.stringify(a)))).toEqual([]);
        expect(auditDiff(a, b).length === 0).toBe(canonicalJson(a) === canonicalJson(b));
      }),
    );
  });
});
