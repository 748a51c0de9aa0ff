import type { KeyObject } from 'node:crypto';
import type { Clock, Logger, Outbox } from '@pagecast/service-kit';
import type { Mailer, MembershipMirror, Repositories, SettingsMirror } from '../data';
import type { SessionTokens } from '../data/session-tokens';
import type { Background } from './background';
import type { SettingsKeeper } from './settings-keeper';

/** What every account use case gets: built once by the router from the service context and the configuration. */
export interface AccountDeps {
  publicUrl: string;
  /** Failed logins allowed per address in the window (LOGIN_FAILURES_PER_ADDRESS by default). */
  loginFailuresPerAddress?: number;
  /** signs the known-browser cookies (domain/known-browser.ts) */
  knownBrowserKey: KeyObject;
  logger: Logger;
  data: Repositories;
  outbox: Outbox;
  mailer: Mailer;
  /** the gateways' copy of the memberships (NATS key-value) */
  memberships: MembershipMirror;
  /** the screens service's copy of the workspaces' settings (NATS key-value) */
  settings: SettingsMirror;
  /** retries a settings copy that could not be written */
  settingsKeeper: SettingsKeeper;
  tokens: SessionTokens;
  background: Background;
  /** the service's clock (the runtime context's): token expiries, verification and sign-up times */
  clock: Clock;
}
