import { subjects } from '@pagecast/contracts';
import { type Claims, consume, type JetStreamClient, type Logger } from '@pagecast/service-kit';
import type { Mailer, UserRepository } from '../data';
import { alertTakeoverMail, chooseLocale } from '../domain';

/**
 * Mails a member when a disaster report took over their screens (or its takeover ended), from the screens
 * service's `screens.takeover.alerted.v1`: one e-mail per noticeId, in the member's language. As the screen alerts
 * (screen-alerts.ts): recorded after the send, so a crash between may send it twice, never zero times.
 */
export function consumeAlertTakeovers(opts: {
  js: JetStreamClient;
  durable: string;
  users: UserRepository;
  claims: Claims;
  mailer: Mailer;
  publicUrl: string;
  logger: Logger;
}) {
  const { users, claims, mailer, logger } = opts;
  return consume(opts.js, {
    stream: 'SCREENS',
    durable: opts.durable,
    // news: a new deployment does not mail the stream's last week again
    deliver: 'new',
    subjects: [subjects.alertTakeover],
    logger,
    handler: async (envelope) => {
      const notice = envelope.data;
      const key = `alert-takeover:${notice.noticeId}`;
      if (await claims.get(key)) return;
      const user = await users.findById(notice.ownerId);
      if (!user) return;
      const locale = chooseLocale({ account: user.locale });
      await mailer.send(
        user.email,
        alertTakeoverMail(locale, {
          email: user.email,
          firstName: user.firstName,
          lastName: user.lastName,
          publicUrl: opts.publicUrl,
          notice,
        }),
      );
      await claims.claim(key, { data: { ownerId: notice.ownerId } });
    },
  });
}
