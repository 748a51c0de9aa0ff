import { type Claims, createClaims } from '@pagecast/service-kit';
import { type AuditLogRepository, createAuditLogRepository } from './audit-log';
import type mongoose from 'mongoose';
import { type ContactMessageRepository, createContactMessageRepository } from './contact-messages';
import { createRateLimitRepository, type RateLimitRepository } from './rate-limits';
import { createSessionRepository, type SessionRepository } from './sessions';
import { createSigningKeyRepository, type SigningKeyRepository } from './signing-keys';
import { createUserRepository, type UserRepository } from './users';
import { createWorkspaceRepository, type WorkspaceRepository } from './workspaces';

export * from './audit-log';
export * from './contact-messages';
export * from './known-browser-key';
export * from './mailer';
export * from './rate-limits';
export * from './sessions';
export * from './signing-keys';
export * from './users';
export * from './workspaces';
export * from './membership-mirror';
export * from './settings-mirror';

/** Mongoose models and repositories; nothing else touches the driver. */
export interface Repositories {
  users: UserRepository;
  sessions: SessionRepository;
  keys: SigningKeyRepository;
  rateLimits: RateLimitRepository;
  contactMessages: ContactMessageRepository;
  workspaces: WorkspaceRepository;
  claims: Claims;
  /** the audit log: appended and read, never changed */
  auditLog: AuditLogRepository;
  /** Builds the indexes (the unique e-mail index must exist before the first registration). */
  init(): Promise<void>;
}

export function createRepositories(conn: mongoose.Connection): Repositories {
  const users = createUserRepository(conn);
  const sessions = createSessionRepository(conn);
  const keys = createSigningKeyRepository(conn);
  const rateLimits = createRateLimitRepository(conn);
  const contactMessages = createContactMessageRepository(conn);
  const workspaces = createWorkspaceRepository(conn);
  // one-time facts (first login, a migration, the use of a token): the kit's insert-once claims
  const claims = createClaims(conn);
  const auditLog = createAuditLogRepository(conn);
  return {
    users,
    sessions,
    keys,
    rateLimits,
    contactMessages,
    workspaces,
    claims,
    auditLog,
    async init() {
      for (const m of [
        users.model,
        users.hintModel,
        sessions.model,
        keys.model,
        rateLimits.model,
        contactMessages.model,
        ...workspaces.models,
        claims.model,
        auditLog.model,
        auditLog.ids,
      ]) {
        await m.createCollection().catch(() => undefined);
        await m.createIndexes();
      }
    },
  };
}
export * from './sweeper';
