import type mongoose from 'mongoose';

/** Mongoose models and repositories; nothing else touches the driver. */
export type Repositories = Record<string, never>;

/** Creates the models on this service's connection. Empty for now: filled by the marketplace task. */
export function createRepositories(_conn: mongoose.Connection): Repositories {
  return {};
}
