import { FilePublishedEvent, FileUpdatedEvent } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import type { FileDoc } from '../data';
import { filePublishedData, fileUpdatedData } from './publish';

const at = new Date('2026-11-22T05:00:00.000Z');
const doc = (over: Partial<FileDoc> = {}): FileDoc => ({
  _id: 'f1',
  userId: 'u1',
  title: 'Shop',
  filename: 'shop.pdf',
  kind: 'pdf',
  sizeBytes: 1000,
  pageCount: 3,
  displayDuration: 30,
  displayMode: 'fit-height',
  tags: [],
  isPublished: true,
  publishPrice: 3000,
  status: 'private',
  disabledReason: null,
  conversion: { pagesDone: 3, pagesTotal: 3, attempts: 1, finishedAt: at },
  thumbKey: null,
  createdAt: at,
  updatedAt: at,
  ...over,
});
const video = doc({
  filename: 'shop.mp4',
  kind: 'video',
  pageCount: 1,
  media: { format: 'mp4', width: 1280, height: 720, durationMs: 65_400 },
  video: { mimeType: 'video/mp4', bytes: 10, sha256: 'x' },
});

describe('the listing announced for a file on sale', () => {
  it('names a document’s kind, and no length', () => {
    const listing = filePublishedData(doc());
    expect(listing).toMatchObject({ kind: 'pdf', pageCount: 3 });
    expect(listing).not.toHaveProperty('videoDurationMs');
    expect(FilePublishedEvent.parse(listing)).toEqual(listing);
  });

  it('names a video and its length, in the listing and in the snapshot', () => {
    const listing = filePublishedData(video);
    expect(listing).toMatchObject({ kind: 'video', videoDurationMs: 65_400 });
    expect(FilePublishedEvent.parse(listing)).toEqual(listing);
    expect(FileUpdatedEvent.parse(fileUpdatedData(video))).toMatchObject({ kind: 'video', videoDurationMs: 65_400 });
  });

  it('names a photo as a photo', () => {
    expect(filePublishedData(doc({ kind: 'image', filename: 'menu.jpg', pageCount: 1 }))).toMatchObject({
      kind: 'image',
    });
  });
});
