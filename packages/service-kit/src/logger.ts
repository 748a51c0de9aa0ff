import { pino } from 'pino';

export type Logger = pino.Logger;

/** JSON logs (one line per record) with secrets redacted. */
export function createLogger(name: string, level: string = process.env.LOG_LEVEL ?? 'info'): pino.Logger {
  return pino({
    name,
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-pagecast-identity"]',
        'res.headers["set-cookie"]',
      ],
      censor: '[redacted]',
    },
  });
}
