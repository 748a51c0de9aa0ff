import type { KeyObject } from 'node:crypto';
import type { RuntimeContext } from '@pagecast/service-kit';
import type { Config } from './config';
import type { Mailer, MembershipMirror, Repositories, SettingsMirror } from './data';
import type { Background } from './use-cases/background';
import type { SettingsKeeper } from './use-cases/settings-keeper';
import type { SessionTokens } from './data/session-tokens';

/** What routers and consumers get: connections and repositories, created once at start (own module: no circles). */
export interface ServiceContext extends RuntimeContext<Config> {
  data: Repositories;
  mailer: Mailer;
  /** the gateways' copy of the memberships (NATS key-value, data/membership-mirror.ts) */
  memberships: MembershipMirror;
  /** the screens service's copy of the workspaces' settings (NATS key-value, data/settings-mirror.ts) */
  settings: SettingsMirror;
  /** keeps that copy in line with the database: retries and the periodic reconciliation */
  settingsKeeper: SettingsKeeper;
  /** session JWT signing and the JWKS */
  tokens: SessionTokens;
  /** work after the answer (mail delivery); awaited on close */
  background: Background;
  /** signs the known-browser cookies (data/known-browser-key.ts) */
  knownBrowserKey: KeyObject;
}
