import { randomUUID } from 'node:crypto';
import { AuditEntry, subjects } from '@pagecast/contracts';
import type mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishAudit } from '../src/audit';
import { connectMongo } from '../src/mongo';
import { connectNats, ensureStreams, type Nats } from '../src/nats';
import { createOutbox, type Outbox } from '../src/outbox';
import { testEnv, uniqueName } from '../src/testing';
import { captureLogger } from './helpers';

const env = testEnv();
const { logger } = captureLogger();
let conn: mongoose.Connection;
let nats: Nats;
let outbox: Outbox;

beforeAll(async () => {
  conn = await connectMongo(env.MONGO_URL, uniqueName('kit_audit'), logger);
  nats = await connectNats(env.NATS_URL, logger, 'kit-audit-test');
  await ensureStreams(nats.jsm);
  outbox = createOutbox(conn, nats.js, logger);
});
afterAll(async () => {
  await outbox.stop();
  await conn.dropDatabase();
  await conn.close();
  await nats.nc.drain();
});

const change = (objectId: string, after: unknown, key?: string) => ({
  workspaceId: 'ws-kit',
  actor: { userId: 'u-kit', address: '203.0.113.1' },
  action: 'file.updated' as const,
  object: { type: 'file' as const, id: objectId },
  before: { title: 'a', updatedAt: new Date('2026-12-06T00:00:00Z') },
  after,
  ...(key ? { key } : {}),
});

describe('publishAudit (real FerretDB + JetStream)', () => {
  it('publishes the entry on audit.<service>.entry.v1 of the AUDIT stream, snapshots as plain JSON', async () => {
    const id = `f-${randomUUID()}`;
    const entry = await publishAudit(outbox, 'files', change(id, { title: 'b' }), new Date('2026-12-06T01:00:00Z'));
    expect(AuditEntry.parse(entry)).toEqual(entry);
    expect(entry.before).toEqual({ title: 'a', updatedAt: '2026-12-06T00:00:00.000Z' });
    expect(entry.at).toBe('2026-12-06T01:00:00.000Z');
    const stored = await nats.jsm.streams.getMessage('AUDIT', { last_by_subj: subjects.auditFiles });
    expect(stored?.json<{ id: string; data: AuditEntry }>()).toMatchObject({ id: entry.id, data: entry });
  });

  it('the same change published again (a rerun) keeps its id and is stored once; another change gets another', async () => {
    const id = `f-${randomUUID()}`;
    const first = await publishAudit(outbox, 'files', change(id, { title: 'b' }), new Date());
    const again = await publishAudit(outbox, 'files', change(id, { title: 'b' }), new Date(Date.now() + 5));
    expect(again.id).toBe(first.id);
    const other = await publishAudit(outbox, 'files', change(id, { title: 'c' }), new Date());
    const sameButLater = await publishAudit(outbox, 'files', change(id, { title: 'b' }, 'second time'), new Date());
    expect(new Set([first.id, other.id, sameButLater.id]).size).toBe(3);
    const kept = (await outbox.entries({ subject: subjects.auditFiles })).filter(
      (e) => (e.data as AuditEntry).object.id === id,
    );
    expect(kept).toHaveLength(3);
  });
});
