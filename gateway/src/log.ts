import type { createLogger } from '@pagecast/service-kit';

export type Logger = ReturnType<typeof createLogger>;
