import { ConfigError } from './config';
import { createLogger } from './logger';

/** How long a graceful close may take before the process exits anyway. */
export const SHUTDOWN_TIMEOUT_MS = 10_000;

/**
 * Starts a service and closes it gracefully on SIGINT/SIGTERM (exit 0; 1 if closing fails or takes too long).
 * A failed start exits 1; a configuration error prints only its readable message.
 */
export function runService(opts: { name: string; start(): Promise<{ close(): Promise<void> }> }): void {
  const logger = createLogger(opts.name);
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));

  opts.start().then(
    (handle) => {
      let closing = false;
      const shutdown = (signal: NodeJS.Signals) => {
        if (closing) {
          logger.warn({ signal }, 'second signal: exiting now');
          process.exit(1);
        }
        closing = true;
        logger.info({ signal }, 'shutting down');
        const timer = setTimeout(() => {
          logger.error('graceful shutdown timed out');
          process.exit(1);
        }, SHUTDOWN_TIMEOUT_MS);
        timer.unref();
        handle.close().then(
          () => {
            logger.info('stopped');
            process.exit(0);
          },
          (err: unknown) => {
            logger.error({ err }, 'shutdown failed');
            process.exit(1);
          },
        );
      };
      process.on('SIGINT', shutdown);
      process.on('SIGTERM', shutdown);
    },
    (err: unknown) => {
      if (err instanceof ConfigError) process.stderr.write(`${opts.name}: ${err.message}\n`);
      else logger.fatal({ err }, 'start failed');
      process.exit(1);
    },
  );
}
