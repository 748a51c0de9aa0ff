// The screens service's alerts (screens.alert.raised.v1) become one e-mail per alert, in the member's
// language with plural forms, the screens' wall-clock times and a link; read from the real mail catcher (maildev).
import { randomUUID } from 'node:crypto';
import { createEvent, type EventData, subjects } from '@pagecast/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { durableName } from '../src/events';
import { call, type Harness, mailsTo, PUBLIC_URL, startHarness, uniqueEmail, waitForMail } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('account_screen_alerts');
});
afterAll(async () => {
  await h?.close();
});

type Alert = EventData<'screens.alert.raised.v1'>;

/** A member with a name and a language (the verification mail is the first they get); returns id and address. */
async function member(locale: 'ja' | 'fr' | 'en' | 'it', firstName: string, lastName: string) {
  const email = uniqueEmail(`alert-${locale}`);
  const res = await call(h, 'POST', '/api/auth/register', {
    body: { email, firstName, lastName, password: 'correct horse battery', locale },
  });
  expect(res.status).toBe(200);
  await waitForMail(email, 1);
  const user = await h.server.context.data.users.findByEmail(email);
  return { id: user?._id as string, email };
}

async function publish(alert: Alert): Promise<void> {
  await h.nats.js.publish(subjects.screenAlert, JSON.stringify(createEvent(subjects.screenAlert, alert)));
}

const screen = (
  screenId: string,
  screenName: string,
  state: Alert['down'][number]['state'],
  at: string,
  timeZone = 'Asia/Tokyo',
) => ({ screenId, screenName, timeZone, state, at });

const alert = (ownerId: string, over: Partial<Alert>): Alert => ({
  alertId: randomUUID(),
  ownerId,
  raisedAt: new Date().toISOString(),
  down: [],
  recovered: [],
  downTotal: 0,
  recoveredTotal: 0,
  ...over,
});

/** Waits until the service's alert consumer has handled and acknowledged everything it was sent. */
async function consumerIdle(): Promise<{ redelivered: number }> {
  const durable = `${durableName(h.server.context.dbName)}-screen-alerts`;
  for (;;) {
    const info = await h.nats.jsm.consumers.info('SCREENS', durable);
    if (info.num_pending === 0 && info.num_ack_pending === 0) return { redelivered: info.num_redelivered };
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('screen alert e-mails', () => {
  it('tells one screen down in Japanese, with its wall-clock time and a link to the screen', async () => {
    const m = await member('ja', '太郎', '山田');
    const screenId = randomUUID();
    await publish(
      alert(m.id, {
        down: [screen(screenId, 'ロビー', 'offline', '2026-11-23T03:04:00.000Z')],
        downTotal: 1,
      }),
    );
    const mail = await waitForMail(m.email, 2);
    expect(mail.subject).toBe('【Pagecast】1台のスクリーンに問題があります');
    const lines = mail.text.split('\n');
    expect(lines[0]).toBe('山田 太郎 様');
    // 12:04 in Tokyo, not 03:04 UTC
    expect(mail.text).toContain('- ロビー — オフライン — 2026年11月23日 12:04 JSTから');
    expect(mail.text).toContain(`${PUBLIC_URL}/screens/health?screen=${screenId}`);
    expect(mail.html).toContain(`href="${PUBLIC_URL}/screens/health?screen=${screenId}"`);
  });

  it('tells screens down and recovered in French with plural forms, and links to the list filtered by state', async () => {
    const m = await member('fr', 'Marie', 'Curie');
    const a = randomUUID();
    const b = randomUUID();
    const c = randomUUID();
    await publish(
      alert(m.id, {
        down: [
          screen(a, 'Accueil', 'frozen', '2026-11-23T08:00:00.000Z', 'Europe/Paris'),
          screen(b, 'Vitrine', 'frozen', '2026-11-23T08:01:00.000Z', 'Europe/Paris'),
        ],
        recovered: [screen(c, 'Caisse', 'offline', '2026-11-23T08:02:00.000Z', 'Europe/Paris')],
        downTotal: 2,
        recoveredTotal: 1,
      }),
    );
    const mail = await waitForMail(m.email, 2);
    expect(mail.subject).toBe('[Pagecast] 2 écrans ont un problème, 1 écran rétabli');
    expect(mail.text.split('\n')[0]).toBe('Bonjour Marie Curie,');
    expect(mail.text).toContain('Ces 2 écrans ont un problème depuis plus longtemps que leur seuil d’alerte :');
    expect(mail.text).toContain('- Accueil — image figée — depuis le 23 nov. 2026, 09:00 UTC+1');
    expect(mail.text).toContain('Cet écran fonctionne de nouveau :');
    expect(mail.text).toContain('- Caisse — hors ligne — rétabli le 23 nov. 2026, 09:02 UTC+1');
    expect(mail.text).toContain(`${PUBLIC_URL}/screens/health?state=frozen`);
    expect(mail.text).not.toContain('?screen=');
  });

  it('lists 20 of 200 screens and counts the rest, and links to the list without a state when they differ', async () => {
    const m = await member('en', 'Ada', 'Lovelace');
    const down = Array.from({ length: 20 }, (_, i) =>
      screen(randomUUID(), `Site A ${i + 1}`, i === 0 ? 'broken' : 'offline', '2026-11-23T03:00:00.000Z', 'UTC'),
    );
    await publish(alert(m.id, { down, downTotal: 200 }));
    const mail = await waitForMail(m.email, 2);
    expect(mail.subject).toBe('[Pagecast] 200 screens need attention');
    expect(mail.text).toContain('These 200 screens have had a problem for longer than their alert threshold:');
    expect(mail.text.split('\n').filter((l) => l.startsWith('- Site A '))).toHaveLength(20);
    expect(mail.text).toContain('…and 180 more screens');
    expect(mail.text).toContain(`See the screens: ${PUBLIC_URL}/screens/health\n`);
  });

  it('sends one e-mail per alert however often the event is delivered', async () => {
    const m = await member('it', 'Maria', 'Montessori');
    const once = alert(m.id, {
      recovered: [screen(randomUUID(), 'Ingresso', 'wrong', '2026-11-23T03:00:00.000Z', 'Europe/Rome')],
      recoveredTotal: 1,
    });
    await publish(once);
    const first = await waitForMail(m.email, 2);
    expect(first.subject).toBe('[Pagecast] 1 schermo ripristinato');
    expect(first.text.split('\n')[0]).toBe('Gentile Maria Montessori,');
    // the same alert again (a redelivery, or the sweeper sending it again after a crash), then another one
    await publish(once);
    await publish(once);
    const next = alert(m.id, {
      down: [
        screen(randomUUID(), 'Sala', 'offline', '2026-11-23T03:00:00.000Z', 'Europe/Rome'),
        screen(randomUUID(), 'Bar', 'offline', '2026-11-23T03:00:00.000Z', 'Europe/Rome'),
      ],
      downTotal: 2,
    });
    await publish(next);
    const second = await waitForMail(m.email, 3);
    expect(second.subject).toBe('[Pagecast] 2 schermi hanno un problema');
    await consumerIdle();
    const alerts = (await mailsTo(m.email)).filter((x) => x.subject.includes('scherm'));
    expect(alerts.map((x) => x.subject)).toEqual([
      '[Pagecast] 1 schermo ripristinato',
      '[Pagecast] 2 schermi hanno un problema',
    ]);
  });

  it('acknowledges an alert for an owner it does not know, and sends nothing', async () => {
    const m = await member('en', 'Grace', 'Hopper');
    await publish(
      alert(randomUUID(), {
        down: [screen(randomUUID(), 'Nowhere', 'offline', '2026-11-23T03:00:00.000Z')],
        downTotal: 1,
      }),
    );
    await publish(
      alert(m.id, { down: [screen(randomUUID(), 'Lab', 'offline', '2026-11-23T03:00:00.000Z')], downTotal: 1 }),
    );
    expect((await waitForMail(m.email, 2)).subject).toBe('[Pagecast] 1 screen needs attention');
    expect(await consumerIdle()).toEqual({ redelivered: 0 });
  });
});
