import { subjects } from '@pagecast/contracts';
import { consume, followEvents, type Logger, type Nats, type Outbox } from '@pagecast/service-kit';
import type { Repositories } from '../data';
import { followedSubjects } from '../data/screen-views';
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
        subjects: [subjects.userRegistered],
        logger,
        deliver,
        handler: async (e) => {
          const at = new Date(e.data.registeredAt);
          await data.owners.setTier(e.data.userId, e.data.membershipTier, at);
          await data.owners.setPoints(e.data.userId, e.data.points, at);
        },
      }),
    );
    consumers.push(
      await consume(nats.js, {
        stream: 'BILLING',
        durable: `${prefix}-billing`,
        subjects: [subjects.membershipChanged, subjects.pointsChanged],
        logger,
        deliver,
        handler: async (e) => {
          if (e.type === subjects.membershipChanged) {
            const d = e.data as { userId: string; tier: Parameters<typeof data.owners.setTier>[1] };
            await data.owners.setTier(d.userId, d.tier, new Date(e.occurredAt));
            return;
          }
          const d = e.data as {
            userId: string;
            balance: number;
            entryId: string;
            amount?: number;
            type?: 'earn' | 'spend' | 'purchase';
            occurredAt?: string;
            sale?: boolean;
          };
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
        },
      }),
    );
    consumers.push(
      await consume(nats.js, {
        stream: 'MARKETPLACE',
        durable: `${prefix}-marketplace`,
        subjects: [subjects.purchaseCompleted, subjects.licenceExpired],
        logger,
        deliver,
        handler: async (e) => {
          if (e.type === subjects.purchaseCompleted) {
            const d = e.data as {
              purchaseId: string;
              buyerId: string;
              fileId: string;
              sellerId: string;
              price: number;
              sellerNet?: number;
              expiresAt: string;
            };
            await data.files.recordLicence({
              purchaseId: d.purchaseId,
              buyerId: d.buyerId,
              fileId: d.fileId,
              sellerId: d.sellerId,
              price: d.price,
              sellerNet: d.sellerNet ?? 0,
              expiresAt: new Date(d.expiresAt),
            });
            return;
          }
          const d = e.data as { purchaseId: string; fileId: string; expiredAt: string };
          await data.files.expireLicence(d.purchaseId, new Date(d.expiredAt));
          // Open players refetch on this file's events: the gateway forwarded the expiry at the same time as this
          // consumer got it, so this snapshot, sent once the end is stored here, makes sure their refetch sees it.
          const file = await data.files.findById(d.fileId);
          if (file) await deps.outbox.add('files.file.updated.v1', fileUpdatedData(file));
        },
      }),
    );
    // What displays read, in memory on every instance (issue 40, data/screen-views.ts): every instance hears the
    // screens' events and this service's playlist and file events as they are published. Subscribed (and flushed)
    // before the durable consumer below starts and before HTTP answers: what is read from screen_content from then on
    // has every later event heard on top.
    const followed = followEvents(nats, followedSubjects, (e) => data.screenViews.hear(e), {
      logger,
      onGap: () => data.screenViews.dropAll(),
    });
    consumers.push({ stop: async () => followed.stop() });
    await nats.nc.flush();
    // Paired screens (issue 12): what each screen's device may read (the read model the memory reads on a miss).
    consumers.push(
      await consume(nats.js, {
        stream: 'SCREENS',
        durable: `${prefix}-screens`,
        subjects: [subjects.screenChanged, subjects.screenRevoked, subjects.fleetChanged],
        logger,
        deliver,
        handler: async (e) => {
          if (e.type === subjects.screenChanged) {
            const d = e.data as {
              screenId: string;
              ownerId: string;
              changedAt: string;
              playlistIds: string[];
              fileIds: string[];
            };
            await data.screenContent.apply({
              _id: d.screenId,
              ownerId: d.ownerId,
              playlistIds: d.playlistIds,
              fileIds: d.fileIds,
              changedAt: new Date(d.changedAt),
            });
            return;
          }
          if (e.type === subjects.fleetChanged) {
            // one change to many screens (issue 37): what they may now be asked to play
            const f = e.data as {
              ownerId: string;
              screenIds: string[];
              content: { playlistIds: string[]; fileIds: string[] };
            };
            await data.screenContent.grant(f.screenIds, f.ownerId, f.content);
            return;
          }
          const d = e.data as { screenId: string; ownerId: string; revokedAt: string };
          await data.screenContent.revoke(d.screenId, d.ownerId, new Date(d.revokedAt));
        },
      }),
    );
  } catch (err) {
    await Promise.all(consumers.map((c) => c.stop()));
    throw err;
  }
  return consumers;
}
