import { PLAY_MAX_AGE_DAYS } from '@pagecast/contracts';
import { DEVICE_RPC_PREFIX, deviceRpcPrefix, loadConfig } from '@pagecast/service-kit';
import { z } from 'zod';

/**
 * Variables of this service on top of the kit's base (docs/platform.md):
 *   PORT                  default 4105
 *   PAIRING_RATE_MAX      pairing codes a display address may ask for per minute (default 10)
 *   PAIR_ATTEMPT_RATE_MAX codes a member may try per minute, right or wrong (default 10)
 *   CONSUMER_PREFIX       prefix of the read model's durable consumer (tests use their own; default screens)
 *   EVENTS_DELIVER        where a new durable starts: all (rebuilds an empty database) or new (tests)
 *   INCIDENT_SWEEP_MS     how often the incident sweep runs (default 15000; 0 = never: tests sweep on their clock)
 *   ALERTS_JMA_FEED_URL   JMA Atom feed URLs, comma-separated (eqvol.xml, extra.xml); unset = no poller (reports
 *                         may still arrive on the ALERTS stream, from a replay or another deployment's poller)
 *   ALERTS_POLL_MS        how often the feed is read (default and minimum 60000, as JMA asks)
 *   DEVICE_RPC_SUBJECT_PREFIX  the displays' socket calls relayed by the gateway: `<prefix>.<type>` (default
 *                         rpc.screens.device; tests sharing one NATS use their own)
 *   PLAYS_STREAM          the JetStream stream play records go through (default PLAYS; tests run their own)
 *   PLAY_INTAKE_MAX_PENDING  play records waiting for the intake stream's acknowledgement at most (default 4096): a
 *                         batch beyond it waits for room, and is answered 503 when none comes within the timeout
 *   PLAY_INTAKE_TIMEOUT_MS   a batch's time for room and for every record's acknowledgement (default 5000); past it
 *                         the display is answered 503 and keeps its records to send again (the stream drops repeats)
 *   PLAY_RETENTION_DAYS   how long raw play records are kept before compaction folds them into the rollups (35:
 *                         a dispute's time; at least PLAY_MAX_AGE_DAYS + 2, so no record of a compacted day can come)
 *   PLAY_JUDGE            judge the intake stream in this process (default 1; 0: publish only)
 *   PLAY_JUDGE_GATHER_MS  how long the judge gathers records into one group after the first (default 1000; 0: what
 *                         has arrived only); a record is judged this much later, its group's writes are shared
 *   PLAY_ROLLUP_FLUSH_MS  how often the judge writes the day rollups it holds while records keep coming (default
 *                         10000; at once when the stream is quiet); its checkpoint moves with each write
 *   PROPOSAL_SWEEP_MS     how often approval decisions a crash left unfinished are carried to their end (default
 *                         60000; 0 = only at start)
 *   COMPACTION_MS         how often compaction looks for days past retention (default 3600000; 0 = never)
 */
export const configSchema = {
  PORT: z.coerce.number().int().min(0).max(65535).default(4105),
  PAIRING_RATE_MAX: z.coerce.number().int().positive().default(10),
  PAIR_ATTEMPT_RATE_MAX: z.coerce.number().int().positive().default(10),
  CONSUMER_PREFIX: z.string().min(1).default('screens'),
  EVENTS_DELIVER: z.enum(['all', 'new']).default('all'),
  INCIDENT_SWEEP_MS: z.coerce.number().int().min(0).default(15_000),
  ALERTS_JMA_FEED_URL: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url())),
  ALERTS_POLL_MS: z.coerce.number().int().min(60_000).default(60_000),
  DEVICE_RPC_SUBJECT_PREFIX: deviceRpcPrefix.default(DEVICE_RPC_PREFIX),
  PLAYS_STREAM: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default('PLAYS'),
  PLAY_INTAKE_MAX_PENDING: z.coerce.number().int().min(1).max(1_000_000).default(4096),
  PLAY_INTAKE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  PLAY_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(PLAY_MAX_AGE_DAYS + 2)
    .max(3660)
    .default(35),
  PLAY_JUDGE: z.enum(['0', '1']).default('1'),
  PLAY_JUDGE_GATHER_MS: z.coerce.number().int().min(0).max(10_000).default(1000),
  PLAY_ROLLUP_FLUSH_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
  PROPOSAL_SWEEP_MS: z.coerce.number().int().min(0).default(60_000),
  COMPACTION_MS: z.coerce.number().int().min(0).default(3_600_000),
};

export function loadServiceConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(configSchema, env);
}
export type Config = ReturnType<typeof loadServiceConfig>;
