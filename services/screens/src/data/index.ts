import type { Nats } from '@pagecast/service-kit';
import type mongoose from 'mongoose';
import { createDeviceTokens } from './device-tokens';
import { defineModels } from './models';
import { createPairingRepository } from './pairings';
import { createPlayRepository } from './plays';
import { createRateLimits } from './rate-limits';
import { createScreenRepository } from './screens';
import { createSoldFileRepository } from './sold-files';
import { createStatusRepository } from './statuses';

export async function createRepositories(conn: mongoose.Connection, nats: Nats) {
  const models = defineModels(conn);
  return {
    pairings: createPairingRepository(models),
    screens: createScreenRepository(models),
    statuses: await createStatusRepository(nats),
    plays: createPlayRepository(models),
    soldFiles: createSoldFileRepository(models),
    rateLimits: createRateLimits(conn),
    deviceTokens: createDeviceTokens(conn),
  };
}
export type Repositories = Awaited<ReturnType<typeof createRepositories>>;
export type {
  PairingClaimRecord,
  PairingRecord,
  PlayRecordDoc,
  ScreenRecord,
  SoldFileDoc,
} from './models';
export type { ScreenStatus } from './statuses';
