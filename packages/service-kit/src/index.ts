export { type ByteRange, parseRange } from './byte-range';
export { type Actor, authorize, requireActor } from './actor';
export { type BaseConfig, baseConfigSchema, ConfigError, databaseNameOf, loadConfig } from './config';
export {
  AppError,
  bulkWriteErrors,
  errorAnswer,
  errorHandler,
  insertManyOnce,
  isDuplicateKeyError,
  onlyDuplicateKeys,
  parseWith,
  toAppError,
  zodIssues,
} from './errors';
export {
  createHttpApp,
  createServer,
  decodedBody,
  DEFAULT_LISTEN_BACKLOG,
  DEFAULT_TIMEOUTS,
  KEEP_ALIVE_TIMEOUT_MS,
  type HttpAppOptions,
  JSON_BODY_LIMIT,
  type Listening,
  listen,
  type ServerTimeouts,
} from './http';
export {
  clientAddressMiddleware,
  IDENTITY_MAX_AGE_SECONDS,
  identityMiddleware,
  requireDevice,
  requireIdentity,
  signClientAddressHeader,
  signDeviceIdentityHeader,
  signIdentityHeader,
  verifyAnyIdentityHeader,
  verifyClientAddressHeader,
  verifyIdentityHeader,
} from './identity';
export {
  type Clock,
  type CrashPointOf,
  createClock,
  serviceClock,
  createFailpoints,
  FAILPOINTS,
  type FailpointName,
  type Failpoints,
  type FailpointSettings,
  NO_FAILPOINTS,
  parseFailpoints,
  seededRandom,
  testClockRouter,
} from './failpoints';
export { createLogger, type Logger } from './logger';
export { connectMongo, mongoReady } from './mongo';
export {
  type ConsumeOptions,
  connectNats,
  consume,
  consumeRaw,
  ensureConsumer,
  ensureStreams,
  type JetStreamClient,
  type JetStreamManager,
  type KV,
  type Nats,
  type NatsConnection,
  natsReady,
  permanentNatsError,
  openKeyValue,
  PULL_EXPIRES_MS,
  type StreamDefinition,
} from './nats';
export {
  createStreamPublisher,
  type StreamAck,
  type StreamMessage,
  StreamPublishError,
  type StreamPublisher,
  type StreamPublisherOptions,
} from './stream-publisher';
export {
  createOutbox,
  type Outbox,
  type OutboxEntry,
  type OutboxModel,
  RELAY_AGE_MS,
  RELAY_INTERVAL_MS,
} from './outbox';
export {
  auditDiff,
  type ChainBreak,
  type ChainedEntry,
  type ChainVerdict,
  canonicalJson,
  chainedContent,
  chainHash,
  chainVerifier,
  GENESIS_HASH,
  nextLink,
  verifyChain,
} from './audit-chain';
export {
  type AuditActor,
  type AuditedChange,
  type AuditService,
  auditActor,
  auditSnapshot,
  publishAudit,
} from './audit';
export { type ClaimRecord, type Claims, createClaims, type LeaseOptions } from './claims';
export { createWriteLocks, type WriteLockOptions, type WriteLocks } from './write-locks';
export { type BatchLoader, type ByIdCollection, createBatchLoader, readByIds } from './batch-loader';
export { LRUCache } from 'lru-cache';
export { type NameUuidLayout, nameUuid } from './name-uuid';
export { createGroupCommit, type GroupCommit } from './group-commit';
export { runPeriodically } from './periodic';
export { onceUntilFailure } from './once';
export { type FollowedEvents, followEvents } from './follow-events';
export { createRecentChanges, type RecentChanges } from './recent-changes';
export { createMemoryView, type MemoryView, type MemoryViewOptions, type Reducer } from './memory-view';
export { type EnvelopeOf, type EventRoutes, eventRoutes } from './event-routes';
export { FOLLOW_RETRY_MAX_MS, FOLLOW_RETRY_MIN_MS, followStream, type StreamFollower } from './stream-follower';
export { BUCKET_READY_WITHIN_MS, type BucketFollower, followBucket, type KvWatchEntry } from './bucket-follower';
export {
  DEFAULT_START_TIMEOUT_MS,
  StartTimeoutError,
  type StartRetry,
  startRetry,
  startRetryDelay,
  untilReady,
} from './start-retry';
export { createS3, type S3, type S3Config } from './s3';
export { runService, SHUTDOWN_TIMEOUT_MS } from './shutdown';
export {
  type Closer,
  type OnClose,
  type RunningService,
  type RuntimeContext,
  type RuntimeContextWithS3,
  type ServiceRuntimeOptions,
  startServiceRuntime,
} from './runtime';
export {
  DEVICE_RPC_BATCH,
  DEVICE_RPC_BATCH_MAX,
  DEVICE_READ_PREFIX,
  DEVICE_READ_QUEUE,
  DEVICE_RPC_BATCH_MS,
  DEVICE_RPC_PREFIX,
  DEVICE_RPC_QUEUE,
  DEVICE_RPC_TIMEOUT_MS,
  type DeviceRpcAnswer,
  type DeviceRpcClient,
  type DeviceRpcHandler,
  conditionalAnswer,
  deviceRpcClient,
  deviceRpcPrefix,
  deviceRpcSubject,
  joinBatch,
  serveDeviceRpc,
  splitBatch,
} from './device-rpc';
