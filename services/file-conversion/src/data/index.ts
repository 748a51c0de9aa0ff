import type { S3 } from '@pagecast/service-kit';
import type mongoose from 'mongoose';
import { createFilesRepo, type FilesRepo } from './files';
import { createModels, type Models } from './models';
import { createOwners, type Owners } from './owners';
import { createScreenContent, type ScreenContent } from './screen-content';
import { createStorage, type Storage } from './storage';

export type * from './models';
export type { FilesRepo } from './files';
export type { Owners } from './owners';
export type { Storage } from './storage';
export { renderPreview } from './previews';

/** Mongoose models and repositories and object storage; nothing else touches the driver. */
export interface Repositories {
  models: Models;
  owners: Owners;
  files: FilesRepo;
  storage: Storage;
  /** what paired screens may read (screens' events) */
  screenContent: ScreenContent;
}

/** Creates the models on this service's connection. */
export function createRepositories(conn: mongoose.Connection, s3: S3): Repositories {
  const models = createModels(conn);
  return {
    models,
    owners: createOwners(models),
    files: createFilesRepo(models),
    storage: createStorage(s3),
    screenContent: createScreenContent(conn),
  };
}

/** Builds the indexes (unique ones matter for idempotency); safe to run from several processes. */
export async function ensureIndexes(repos: Repositories): Promise<void> {
  await Promise.all(Object.values(repos.models).map((m: { createIndexes(): Promise<unknown> }) => m.createIndexes()));
}
