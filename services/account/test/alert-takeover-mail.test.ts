// A disaster report's takeover (screens.takeover.alerted.v1) becomes one e-mail per notice, in the member's
// language, naming what the report said and which screens show it; read from the real mail catcher (maildev).
import { randomUUID } from 'node:crypto';
import { createEvent, type EventData, subjects } from '@pagecast/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Harness, mailsTo, PUBLIC_URL, startHarness, uniqueEmail, waitForMail } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('account_alert_takeovers');
});
afterAll(async () => {
  await h?.close();
});

type Notice = EventData<'screens.takeover.alerted.v1'>;

async function member(locale: 'ja' | 'en', firstName: string, lastName: string) {
  const email = uniqueEmail(`quake-${locale}`);
  const res = await call(h, 'POST', '/api/auth/register', {
    body: { email, firstName, lastName, password: 'correct horse battery', locale },
  });
  expect(res.status).toBe(200);
  await waitForMail(email, 1);
  const user = await h.server.context.data.users.findByEmail(email);
  return { id: user?._id as string, email };
}

const notice = (ownerId: string, over: Partial<Notice> = {}): Notice => ({
  noticeId: randomUUID(),
  ownerId,
  action: 'started',
  reportId: 'jma:20240101161010:1:issued',
  alertKind: 'earthquake',
  drill: false,
  headline: '１日１６時１０分ころ、地震による強い揺れを感じました。',
  reportedAt: new Date().toISOString(),
  areas: ['輪島市'],
  intensity: '6-',
  screens: [{ screenId: randomUUID(), screenName: '能登店' }],
  screensTotal: 1,
  ...over,
});

// each publish its own message id: a notice sent again (a redelivery, a crash before the mark) is the same noticeId
const publish = (n: Notice) =>
  h.nats.js.publish(subjects.alertTakeover, JSON.stringify(createEvent(subjects.alertTakeover, n)), {
    msgID: randomUUID(),
  });

describe('alert takeover e-mails', () => {
  it('tells a Japanese member which screens a 震度6弱 report took over, once per notice', async () => {
    const m = await member('ja', '花子', '佐藤');
    const n = notice(m.id);
    await publish(n);
    const mail = await waitForMail(m.email, 2);
    expect(mail.subject).toBe('【Pagecast】地震（震度6弱）：1台のスクリーンに緊急表示しました');
    expect(mail.text).toContain('佐藤 花子 様');
    expect(mail.text).toContain('- 能登店');
    expect(mail.text).toContain('対象地域: 輪島市');
    expect(mail.text).toContain(n.headline);
    expect(mail.text).toContain(`${PUBLIC_URL}/screens/fleet`);
    // the same notice again, then the takeover's end: one more e-mail, not two
    await publish(n);
    await publish(notice(m.id, { action: 'ended' }));
    const ended = await waitForMail(m.email, 3);
    expect(ended.subject).toBe('【Pagecast】地震（震度6弱）：1台のスクリーンの緊急表示を終了しました');
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailsTo(m.email)).toHaveLength(3);
  });

  it('words a 訂正 as a correction, not a second start', async () => {
    const m = await member('en', 'Ken', 'Sato');
    await publish(notice(m.id, { action: 'corrected', reportId: 'jma:20240101161010:2:corrected' }));
    const mail = await waitForMail(m.email, 2);
    expect(mail.subject).toBe(
      '[Pagecast] Earthquake (seismic intensity 6 lower): corrected report, updated on your screen',
    );
  });

  it('words a drill’s end in English', async () => {
    const m = await member('en', 'Ann', 'Lee');
    await publish(
      notice(m.id, {
        action: 'ended',
        drill: true,
        alertKind: 'tsunami',
        intensity: undefined,
        tsunamiGrade: 'major-warning',
        areas: ['高知県'],
        screens: [
          { screenId: randomUUID(), screenName: 'Beach' },
          { screenId: randomUUID(), screenName: 'Pier' },
        ],
        screensTotal: 3,
      }),
    );
    const mail = await waitForMail(m.email, 2);
    expect(mail.subject).toBe('[Pagecast] [DRILL] Major tsunami warning: ended on 3 of your screens');
    expect(mail.text).toContain('- Pier\n…and 1 more');
  });
});
