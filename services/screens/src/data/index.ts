import type { Logger } from '@pagecast/service-kit';
import type mongoose from 'mongoose';
import { createDeviceTokens } from './device-tokens';
import { defineModels } from './models';
import { createPairingRepository } from './pairings';
import { createPlayRepository } from './plays';
import { createRateLimits } from './rate-limits';
import { createScreenRepository } from './screens';
import { createSoldFileRepository } from './sold-files';
import { createStatusRepository } from './statuses';

export function createRepositories(conn: mongoose.Connection, logger?: Logger) {
  const models = defineModels(conn);
  return {
    pairings: createPairingRepository(models),
    screens: createScreenRepository(models),
    statuses: createStatusRepository(models, logger),
    plays: createPlayRepository(models),
    soldFiles: createSoldFileRepository(models),
    rateLimits: createRateLimits(conn),
    deviceTokens: createDeviceTokens(conn),
  };
}
export type Repositories = ReturnType<typeof createRepositories>;
export type {
  PairingClaimRecord,
  PairingRecord,
  PlayRecordDoc,
  ScreenRecord,
  ScreenStatusDoc,
  SoldFileDoc,
} from './models';
