// What the gateway reads from NATS (server.ts): session and device revocations, and the live feed that also drops
// page-image decisions.
import { DEVICE_TOKEN_TTL_SECONDS, SESSION_TOKEN_TTL_SECONDS, subjects } from '@pagecast/contracts';
import type { connectNats } from '@pagecast/service-kit';
import type { DeviceSockets } from './device-socket';
import type { EventsHub } from './events';
import { type LiveFeed, startLiveFeed } from './live';
import type { Logger } from './log';
import type { MediaServer } from './media';
import type { VideoServer } from './media-video';
import { type MembershipFeed, type MembershipStore, startMembershipFeed } from './memberships';
import { type RevocationFeed, type RevocationStore, startRevocationFeed } from './revocations';
import { type StatusFeed, startStatusFeed } from './screen-status-feed';

export interface Feeds {
  feed: RevocationFeed;
  deviceFeed: RevocationFeed;
  live: LiveFeed;
  statusFeed: StatusFeed;
  memberships: MembershipFeed;
  /**
   * Resolves true when the recent revocations are known and the live feed is in place, false after 10 s (a bounded
   * wait: a slow NATS must not block forever).
   */
  caughtUp: Promise<boolean>;
  stop(): Promise<void>;
}

export function startFeeds(opts: {
  nats: Awaited<ReturnType<typeof connectNats>>;
  revocations: RevocationStore;
  deviceRevocations: RevocationStore;
  events: EventsHub;
  media: MediaServer;
  /** the videos' decisions (media-video.ts), dropped by the same events */
  videos?: Pick<VideoServer, 'onEvent'>;
  /** the workspace memberships (memberships.ts): a removal or a role change ends the person's streams acting there */
  memberships: MembershipStore;
  /** the displays' sockets: closed at their revocation, told of their screens' changes */
  sockets?: Pick<DeviceSockets, 'revoke' | 'onEvent'>;
  logger: Logger;
  /** how long the status feed follows the bucket after the last Screens page closed (tests shorten it) */
  statusLingerMs?: number;
}): Feeds {
  const { nats, revocations, deviceRevocations, events, media, logger } = opts;
  const feed = startRevocationFeed({
    js: nats.js,
    store: revocations,
    ttlSeconds: SESSION_TOKEN_TTL_SECONDS,
    logger,
    onRevoked: (sid) => events.end((c) => c.sessionId === sid),
  });
  // Revoked displays: every revocation a device token could outlive (they live a year), from SCREENS.
  const deviceFeed = startRevocationFeed({
    js: nats.js,
    store: deviceRevocations,
    ttlSeconds: DEVICE_TOKEN_TTL_SECONDS,
    logger,
    stream: 'SCREENS',
    subject: subjects.screenRevoked,
    idField: 'deviceId',
    onRevoked: (deviceId) => {
      events.end((c) => c.sessionId === `device:${deviceId}`);
      opts.sockets?.revoke(deviceId);
    },
  });
  // Live updates (events.ts): playlist and file changes forwarded to the streams watching them.
  const live = startLiveFeed({
    js: nats.js,
    hub: events,
    logger,
    onEvent: (event) => {
      media.onEvent(event);
      opts.videos?.onEvent(event);
      opts.sockets?.onEvent(event);
    },
  });
  // Screens' status reports to their owners' Screens pages (screen-status-feed.ts); not awaited: the screens
  // service makes its bucket, and a gateway may start first.
  const statusFeed = startStatusFeed({ js: nats.js, hub: events, logger, lingerMs: opts.statusLingerMs });
  // Workspace memberships from account's bucket: a removed person's live streams in that workspace end at once, and
  // so do a person's whose role there changed (their page reads its role again when its stream ends).
  const endActingIn = (workspaceId: string, userId: string) =>
    events.end((c) => c.userId === userId && c.workspaceId === workspaceId);
  const memberships = startMembershipFeed({
    nats,
    store: opts.memberships,
    logger,
    onRemoved: endActingIn,
    onRoleChanged: endActingIn,
  });
  const caughtUp = Promise.race([
    Promise.all([feed.caughtUp, deviceFeed.caughtUp, live.ready, memberships.ready]).then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), 10_000).unref()),
  ]);
  return {
    feed,
    deviceFeed,
    live,
    statusFeed,
    memberships,
    caughtUp,
    async stop() {
      await feed.stop();
      await deviceFeed.stop();
      await live.stop();
      await statusFeed.stop();
      await memberships.stop();
    },
  };
}
