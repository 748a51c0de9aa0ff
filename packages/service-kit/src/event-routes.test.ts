import { createEvent, subjects } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import { eventRoutes } from './event-routes';

describe('eventRoutes', () => {
  it('hands each event its typed data by subject, several subjects to one route, and ignores the rest', async () => {
    const heard: string[] = [];
    const routes = eventRoutes()
      .on(subjects.playlistSaved, (d) => heard.push(`saved ${d.playlistId} ${d.fileIds.length}`))
      .on([subjects.fileDeleted, subjects.fileUnpublished], async (d, e) => {
        heard.push(`${e.type} ${d.fileId}`);
      });
    expect(routes.subjects).toEqual([subjects.playlistSaved, subjects.fileDeleted, subjects.fileUnpublished]);
    const at = new Date().toISOString();
    await routes.handler(
      createEvent(subjects.playlistSaved, { playlistId: 'p', ownerId: 'o', name: 'n', fileIds: ['f'], updatedAt: at }),
    );
    await routes.handler(createEvent(subjects.fileDeleted, { fileId: 'f', ownerId: 'o', deletedAt: at }));
    await routes.handler(createEvent(subjects.sessionRevoked, { sessionId: 's', userId: 'u', revokedAt: at }));
    expect(heard).toEqual(['saved p 1', `${subjects.fileDeleted} f`]);
  });

  it('refuses a subject routed twice', () => {
    expect(() =>
      eventRoutes()
        .on(subjects.fileDeleted, () => {})
        .on(subjects.fileDeleted, () => {}),
    ).toThrow(/routed twice/);
  });
});
