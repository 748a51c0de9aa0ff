import type { Clock, S3 } from '@pagecast/service-kit';
import type mongoose from 'mongoose';
import { createFilesRepo, type FilesRepo } from './files';
import { createImageFiles, type ImageFiles } from './image-files';
import { createModels, type Models } from './models';
import { createOwners, type Owners } from './owners';
import { createPlaylistsRepo, type PlaylistsRepo } from './playlists';
import type { ResumableStore } from './resumable-uploads';
import { createUploadLocks, type UploadLocks } from './upload-locks';
import { createScreenContent, type ScreenContent } from './screen-content';
import { createScreenViews, type ScreenViews } from './screen-views';
import { createStorage, type Storage } from './storage';
import type { S3Client } from '@aws-sdk/client-s3';

export type * from './models';
export type { FilesRepo } from './files';
export type { ImageFile } from './image-files';
export type { PlaylistRecord } from './playlists';
export type { Owners } from './owners';
export type { Storage } from './storage';
export { createWriteClient } from './storage';
export { RESUMABLE_PREFIX, ResumableStore, resumableKey, uploadIdOfKey } from './resumable-uploads';
export { renderPreview } from './previews';

/** Mongoose models and repositories and object storage; nothing else touches the driver. */
export interface Repositories {
  models: Models;
  owners: Owners;
  files: FilesRepo;
  /** which files show a page image, remembered briefly */
  imageFiles: ImageFiles;
  playlists: PlaylistsRepo;
  storage: Storage;
  /** unfinished resumable (tus) uploads, on the same bucket under tus/ */
  resumable: ResumableStore;
  /** one tus call per upload at a time, across instances */
  uploadLocks: UploadLocks;
  /** what paired screens may read (screens' events) */
  screenContent: ScreenContent;
  /** what each paired screen plays, and the playlists and files displays read, in memory (events keep it current) */
  screenViews: ScreenViews;
}

/** Creates the models on this service's connection; records are stamped with `clock` (the runtime context's). */
export function createRepositories(
  conn: mongoose.Connection,
  s3: S3,
  clock: Clock,
  resumable: ResumableStore,
  /** the client that stores files (storage.ts, createWriteClient) */
  writer: S3Client,
): Repositories {
  const models = createModels(conn);
  const files = createFilesRepo(models, clock);
  const playlists = createPlaylistsRepo(conn, clock);
  const screenContent = createScreenContent(conn);
  const screenViews = createScreenViews(conn, screenContent, models);
  return {
    models,
    owners: createOwners(models, clock),
    files,
    imageFiles: createImageFiles(files, screenViews.file),
    playlists,
    storage: createStorage(s3, writer),
    resumable,
    uploadLocks: createUploadLocks(conn),
    screenContent,
    screenViews,
  };
}

/** Builds the indexes (unique ones matter for idempotency); safe to run from several processes. */
export async function ensureIndexes(repos: Repositories): Promise<void> {
  await Promise.all([
    ...Object.values(repos.models).map((m: { createIndexes(): Promise<unknown> }) => m.createIndexes()),
    repos.playlists.ensureIndexes(),
  ]);
}
