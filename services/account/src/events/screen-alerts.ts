import { subjects } from '@pagecast/contracts';
import { type Claims, consume, type JetStreamClient, type Logger } from '@pagecast/service-kit';
import type { Mailer, UserRepository } from '../data';
import { chooseLocale, screenAlertMail } from '../domain';

/**
 * Mails a member about their screens from the screens service's `screens.alert.raised.v1`: one e-mail per
 * alertId, in the member's language, greeted by name. An owner this database does not know is acknowledged and
 * nothing is sent.
 *
 * Exactly once, as far as SMTP allows: a sent alert is recorded under `screen-alert:<alertId>` (an insert under a
 * unique key), checked before sending. The record is written AFTER the send, so a crash (or a failed insert) between
 * the two sends the e-mail again on redelivery: a member may get an alert twice, never zero times. Recording first
 * would turn that crash into an alert never sent, which is worse for a screen that is down (the member would not
 * know), so we chose at-least-once for that one window, and once for every redelivery after the record.
 */
export function consumeScreenAlerts(opts: {
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
    // alerts are news: a new deployment does not mail the stream's last week of them again
    deliver: 'new',
    subjects: [subjects.screenAlert],
    logger,
    handler: async (envelope) => {
      const alert = envelope.data;
      const key = `screen-alert:${alert.alertId}`;
      if (await claims.get(key)) return; // sent already (a redelivery, or the same alert sent again after a crash)
      const user = await users.findById(alert.ownerId);
      if (!user) {
        logger.info({ alertId: alert.alertId }, 'screen alert for an owner this service does not know: ignored');
        return;
      }
      const locale = chooseLocale({ account: user.locale });
      await mailer.send(
        user.email,
        screenAlertMail(locale, {
          email: user.email,
          firstName: user.firstName,
          lastName: user.lastName,
          publicUrl: opts.publicUrl,
          alert,
        }),
      );
      await claims.claim(key, { data: { ownerId: alert.ownerId } });
    },
  });
}
