import { describe, expect, it } from 'vitest';
import { allSubjects, createEvent, parseEvent, streamForSubject, streams, subjectMatches, subjects } from './events';

const good = {
  id: '0b6f6f5e-3c1a-4c53-9d7e-2d1f7f0a8b11',
  type: 'marketplace.purchase.completed.v1',
  occurredAt: '2026-11-22T05:00:00.000Z',
  data: {
    purchaseId: 'p1',
    buyerId: 'u1',
    fileId: 'f1',
    sellerId: 'u2',
    price: 3000,
    expiresAt: '2026-12-22T05:00:00.000Z',
  },
};

describe('parseEvent', () => {
  it('accepts a good envelope and its data', () => {
    const event = parseEvent(good);
    expect(event.type).toBe(subjects.purchaseCompleted);
    expect(event.data).toEqual(good.data);
    expect(parseEvent(JSON.stringify(good)).id).toBe(good.id);
  });

  it('rejects bad envelopes and bad data', () => {
    expect(() => parseEvent({ ...good, id: 'not-a-uuid' })).toThrow();
    expect(() => parseEvent({ ...good, type: 'marketplace.purchase.unknown.v1' })).toThrow();
    expect(() => parseEvent({ ...good, occurredAt: 'yesterday' })).toThrow();
    expect(() => parseEvent({ ...good, data: { ...good.data, price: '3000' } })).toThrow();
    const { sellerId: _, ...withoutSeller } = good.data;
    expect(() => parseEvent({ ...good, data: withoutSeller })).toThrow();
    expect(() => parseEvent(null)).toThrow();
  });

  it('checks the data of the subject named in the envelope', () => {
    expect(() => parseEvent({ ...good, type: subjects.sessionRevoked })).toThrow();
    const revoked = parseEvent({
      ...good,
      type: subjects.sessionRevoked,
      data: { sessionId: 's1', userId: 'u1', revokedAt: good.occurredAt },
    });
    expect(revoked.data).toEqual({ sessionId: 's1', userId: 'u1', revokedAt: good.occurredAt });
  });

  it('createEvent makes envelopes that parseEvent accepts', () => {
    const event = createEvent(subjects.userMigrated, { userId: 'u1', bonusPoints: 100 });
    expect(parseEvent(JSON.parse(JSON.stringify(event)))).toEqual(event);
    expect(() => createEvent(subjects.userMigrated, { userId: 'u1', bonusPoints: 50 as 100 })).toThrow();
  });
});

describe('a listing announced to the marketplace', () => {
  const listing = {
    fileId: 'f1',
    ownerId: 'u1',
    title: 'Shop video',
    publishPrice: 3000,
    pageCount: 1,
    displayDuration: 30,
    tags: [],
    updatedAt: '2026-11-22T05:00:00.000Z',
  };
  const envelope = (data: object) => ({ ...good, type: subjects.filePublished, data });

  it('carries the kind and a video’s length', () => {
    const event = parseEvent(envelope({ ...listing, kind: 'video', videoDurationMs: 65_400 }));
    expect(event.data).toMatchObject({ kind: 'video', videoDurationMs: 65_400 });
  });

  it('still parses an event made before the kind was carried', () => {
    const event = parseEvent(envelope(listing));
    expect(event.data).toEqual(listing);
  });

  it('refuses a kind that is not a file kind, and a negative length', () => {
    expect(() => parseEvent(envelope({ ...listing, kind: 'audio' }))).toThrow();
    expect(() => parseEvent(envelope({ ...listing, kind: 'video', videoDurationMs: -1 }))).toThrow();
  });
});

describe('subjects and streams', () => {
  it('name subjects <service>.<entity>.<event>.v1', () => {
    for (const subject of allSubjects) expect(subject).toMatch(/^[a-z]+\.[a-z]+\.[a-z]+\.v1$/);
  });

  it('store every subject in exactly one stream', () => {
    for (const subject of allSubjects) {
      const holders = streams.filter((s) => s.subjects.some((p) => subjectMatches(p, subject)));
      expect(
        holders.map((s) => s.name),
        subject,
      ).toHaveLength(1);
    }
    expect(streamForSubject(subjects.conversionRequested)?.name).toBe('CONVERSION');
    expect(streamForSubject(subjects.pageReady)?.name).toBe('FILES');
    expect(streamForSubject(subjects.pointsChanged)?.name).toBe('BILLING');
  });

  it('keep the conversion queue as a work queue and de-duplicate for 2 minutes', () => {
    expect(streams.find((s) => s.name === 'CONVERSION')?.retention).toBe('workqueue');
    for (const stream of streams) expect(stream.duplicateWindowMs).toBe(120000);
  });

  it('match NATS wildcards', () => {
    expect(subjectMatches('files.file.>', 'files.file.deleted.v1')).toBe(true);
    expect(subjectMatches('files.file.>', 'files.conversion.requested.v1')).toBe(false);
    expect(subjectMatches('files.*.deleted.v1', 'files.file.deleted.v1')).toBe(true);
    expect(subjectMatches('account.>', 'account')).toBe(false);
  });
});
