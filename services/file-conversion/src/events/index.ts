import { subjects } from '@pagecast/contracts';
import {
  type Clock,
  consume,
  eventRoutes,
  followEvents,
  type Logger,
  type Nats,
  type Outbox,
} from '@pagecast/service-kit';
import type { Repositories } from '../data';
import { screenEventRoutes } from '../data/screen-views';
import type { ServiceSettings } from '../config';
import { fileUpdatedData } from './publish';

export { announceFileChange, filePublishedData, fileUpdatedData } from './publish';

export interface RunningConsumer {
  stop(): Promise<void>;
}

export interface ConsumerDeps {
  nats: Nats;
  outbox: Outbox;
  data: Repositories;
  logger: Logger;
  /** the service's clock: a licence ends no later than now */
  clock: Clock;
  settings: Pick<ServiceSettings, 'CONSUMER_PREFIX' | 'EVENTS_DELIVER'>;
}

/**
 * The read models this service keeps from other services' events (durable, ack after the write, idempotent):
 * owners (tier from account and billing, points balance), point entries (monthly sums for the dashboard) and
 * licences (marketplace purchases, for playback and page images).
 */
export async function startConsumers(deps: ConsumerDeps): Promise<RunningConsumer[]> {
  const { nats, data, logger, settings } = deps;
  const prefix = settings.CONSUMER_PREFIX;
  const deliver = settings.EVENTS_DELIVER;
  const consumers: RunningConsumer[] = [];
  try {
    consumers.push(
      await consume(nats.js, {
        stream: 'ACCOUNT',
        durable: `${prefix}-account`,
        ...eventRoutes().on(subjects.userRegistered, async (d) => {
          const at = new Date(d.registeredAt);
          await data.owners.setTier(d.userId, d.membershipTier, at);
          await data.owners.setPoints(d.userId, d.points, at);
        }),
        logger,
        deliver,
      }),
    );
    consumers.push(
      await consume(nats.js, {
        stream: 'BILLING',
        durable: `${prefix}-billing`,
        ...eventRoutes()
          .on(subjects.membershipChanged, (d, e) => data.owners.setTier(d.userId, d.tier, new Date(e.occurredAt)))
          .on(subjects.pointsChanged, async (d, e) => {
            const at = new Date(d.occurredAt ?? e.occurredAt);
            await data.owners.setPoints(d.userId, d.balance, at);
            if (d.amount !== undefined) {
              await data.files.recordPointEntry({
                entryId: d.entryId,
                userId: d.userId,
                amount: d.amount,
                type: d.type ?? null,
                occurredAt: at,
                sale: d.sale === true,
              });
            }
          }),
        logger,
        deliver,
      }),
    );
    consumers.push(
      await consume(nats.js, {
        stream: 'MARKETPLACE',
        durable: `${prefix}-marketplace`,
        ...eventRoutes()
          .on(subjects.purchaseCompleted, (d) =>
            data.files.recordLicence({
              purchaseId: d.purchaseId,
              buyerId: d.buyerId,
              fileId: d.fileId,
              sellerId: d.sellerId,
              price: d.price,
              sellerNet: d.sellerNet ?? 0,
              expiresAt: new Date(d.expiresAt),
            }),
          )
          .on(subjects.licenceExpired, async (d) => {
            await data.files.expireLicence(d.purchaseId, new Date(d.expiredAt), deps.clock.now());
            // Open players refetch on this file's events: the gateway forwarded the expiry at the same time as this
            // consumer got it, so this snapshot, sent once the end is stored here, makes sure their refetch sees it.
            const file = await data.files.findById(d.fileId);
            if (file) await deps.outbox.add('files.file.updated.v1', fileUpdatedData(file));
          }),
        logger,
        deliver,
      }),
    );
    // What displays read, in memory on every instance (data/screen-views.ts): every instance hears the
    // screens' events and this service's playlist and file events as they are published. Subscribed (and flushed)
    // before the durable consumer below starts and before HTTP answers: what is read from screen_content from then on
    // has every later event heard on top.
    const followed = followEvents(nats, data.screenViews.routes, {
      logger,
      onGap: () => data.screenViews.dropAll(),
    });
    consumers.push({ stop: async () => followed.stop() });
    await nats.nc.flush();
    // Paired screens: what each screen's device may read (the read model the memory reads on a miss).
    consumers.push(
      await consume(nats.js, {
        stream: 'SCREENS',
        durable: `${prefix}-screens`,
        // the same three events the memory follows, read by the same routes (one change to many screens: a grant)
        ...screenEventRoutes(async (screenIds, e) => {
          const { ownerId } = e;
          if (e.kind === 'granted') {
            return data.screenContent.grant(screenIds, ownerId, { playlistIds: e.playlistIds, fileIds: e.fileIds });
          }
          for (const _id of screenIds) {
            if (e.kind === 'revoked') await data.screenContent.revoke(_id, ownerId, e.at);
            else
              await data.screenContent.apply({
                _id,
                ownerId,
                playlistIds: e.playlistIds,
                fileIds: e.fileIds,
                changedAt: e.changedAt,
              });
          }
        }),
        logger,
        deliver,
      }),
    );
  } catch (err) {
    await Promise.all(consumers.map((c) => c.stop()));
    throw err;
  }
  return consumers;
}
