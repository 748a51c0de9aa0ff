// The screens service's proposals become e-mails read from the real mail catcher (maildev): a waiting proposal to
// the workspace's owner, admins and publishers but its editor, each in their language; a decision to the editor
// (approved, or rejected with the reason quoted); names as they are when the mail is sent; one mail per proposal and
// person however often the event comes.
import { randomUUID } from 'node:crypto';
import { createEvent, type EventData, subjects } from '@pagecast/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { durableName } from '../src/events';
import {
  call,
  type Harness,
  join,
  mailsTo,
  type Person,
  person,
  PUBLIC_URL,
  startHarness,
  waitForMail,
} from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('account_proposal_mails');
});
afterAll(async () => {
  await h?.close();
});

type Created = EventData<'screens.proposal.created.v1'>;
type Decided = EventData<'screens.proposal.decided.v1'>;

async function publishCreated(data: Created) {
  await h.nats.js.publish(subjects.proposalCreated, JSON.stringify(createEvent(subjects.proposalCreated, data)));
}
async function publishDecided(data: Decided) {
  await h.nats.js.publish(subjects.proposalDecided, JSON.stringify(createEvent(subjects.proposalDecided, data)));
}

/** Waits until the proposal consumer has handled and acknowledged everything it was sent. */
async function consumerIdle() {
  const durable = `${durableName(h.server.context.dbName)}-proposals`;
  for (;;) {
    const info = await h.nats.jsm.consumers.info('SCREENS', durable);
    if (info.num_pending === 0 && info.num_ack_pending === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const count = async (p: Person) => (await mailsTo(p.email)).length;

let owner: Person;
let admin: Person;
let publisher: Person;
let editorFr: Person;
let editorJa: Person;
let viewer: Person;
beforeAll(async () => {
  owner = await person(h, 'prop-owner', { locale: 'ja', firstName: '太郎', lastName: '山田' });
  admin = await person(h, 'prop-admin', { locale: 'fr', firstName: 'Claire', lastName: 'Martin' });
  publisher = await person(h, 'prop-publisher', { locale: 'it', firstName: 'Giulia', lastName: 'Rossi' });
  editorFr = await person(h, 'prop-editor-fr', { locale: 'fr', firstName: 'Jules', lastName: 'Petit' });
  editorJa = await person(h, 'prop-editor-ja', { locale: 'ja', firstName: '花子', lastName: '佐藤' });
  viewer = await person(h, 'prop-viewer', { locale: 'en', firstName: 'Vera', lastName: 'Brown' });
  await join(h, owner, admin, 'admin');
  await join(h, owner, publisher, 'publisher');
  await join(h, owner, editorFr, 'editor');
  await join(h, owner, editorJa, 'editor');
  await join(h, owner, viewer, 'viewer');
}, 60_000);

const link = (proposalId: string) => `${PUBLIC_URL}/screens/proposals/${proposalId}?w=${owner.userId}`;

describe('a proposal waiting', () => {
  it('mails the owner (ja), the admin (fr) and the publisher (it), not its editor nor the viewer, once', async () => {
    const before = { editor: await count(editorFr), viewer: await count(viewer), ownerCount: await count(owner) };
    const adminCount = await count(admin);
    const publisherCount = await count(publisher);
    // the editor's name as it is when the mail is sent, not when they joined
    const renamed = await call(h, 'PUT', '/api/user/profile', {
      identity: editorFr.identity,
      body: { firstName: 'Jules', lastName: 'Lefèvre' },
    });
    expect(renamed.status).toBe(200);
    const proposal: Created = {
      proposalId: randomUUID(),
      workspaceId: owner.userId,
      proposedBy: editorFr.userId,
      kind: 'bulk',
      screensTotal: 3,
      createdAt: new Date().toISOString(),
    };
    await publishCreated(proposal);

    const ja = await waitForMail(owner.email, before.ownerCount + 1);
    expect(ja.subject).toBe('【Pagecast】Lefèvre Julesさんが3台のスクリーンの変更を提案しました');
    expect(ja.text.split('\n')[0]).toBe('山田 太郎 様');
    expect(ja.text).toContain(
      'Lefèvre Julesさんが、ワークスペース「山田 太郎」で一括変更を提案しました。この提案はあなたの承認を待っています。',
    );
    expect(ja.text).toContain('承認すると、3台のスクリーンで再生される内容が変わります。');
    expect(ja.text).toContain(link(proposal.proposalId));

    const fr = await waitForMail(admin.email, adminCount + 1);
    expect(fr.subject).toBe('[Pagecast] Jules Lefèvre propose une modification de 3 écrans');
    expect(fr.text.split('\n')[0]).toBe('Bonjour Claire Martin,');
    expect(fr.text).toContain(
      'Jules Lefèvre propose une modification groupée dans l’espace de travail «\u202f山田 太郎\u202f». Cette proposition attend votre décision.',
    );
    expect(fr.text).toContain('Si elle est approuvée, ce que diffusent 3 écrans changera.');
    expect(fr.text).toContain(
      `Voir la proposition, puis l’approuver ou la refuser\u202f: ${link(proposal.proposalId)}`,
    );

    const it_ = await waitForMail(publisher.email, publisherCount + 1);
    expect(it_.subject).toBe('[Pagecast] Jules Lefèvre propone una modifica a 3 schermi');
    expect(it_.text).toContain(link(proposal.proposalId));

    // the same proposal again (a redelivery, or the screens service publishing it again): no second mail
    await publishCreated(proposal);
    await consumerIdle();
    await new Promise((r) => setTimeout(r, 300));
    expect(await count(owner)).toBe(before.ownerCount + 1);
    expect(await count(admin)).toBe(adminCount + 1);
    expect(await count(publisher)).toBe(publisherCount + 1);
    expect(await count(editorFr)).toBe(before.editor);
    expect(await count(viewer)).toBe(before.viewer);
  });

  it('one screen in French is singular; a proposal by the admin goes to the owner and the publisher only', async () => {
    const counts = [await count(owner), await count(admin), await count(publisher), await count(editorJa)];
    const proposal: Created = {
      proposalId: randomUUID(),
      workspaceId: owner.userId,
      proposedBy: admin.userId,
      kind: 'update-screen',
      screensTotal: 1,
      createdAt: new Date().toISOString(),
    };
    await publishCreated(proposal);
    const ja = await waitForMail(owner.email, (counts[0] as number) + 1);
    expect(ja.subject).toBe('【Pagecast】Martin Claireさんが1台のスクリーンの変更を提案しました');
    expect(ja.text).toContain('スクリーンの設定の変更を提案しました');
    await waitForMail(publisher.email, (counts[2] as number) + 1);
    await consumerIdle();
    await new Promise((r) => setTimeout(r, 300));
    expect(await count(admin)).toBe(counts[1]);
    expect(await count(editorJa)).toBe(counts[3]);

    // French's singular, from a proposal by the Japanese editor to the French admin
    const adminCount = await count(admin);
    await publishCreated({ ...proposal, proposalId: randomUUID(), proposedBy: editorJa.userId });
    const fr = await waitForMail(admin.email, adminCount + 1);
    expect(fr.subject).toBe('[Pagecast] 花子 佐藤 propose une modification de 1 écran');
    expect(fr.text).toContain('Si elle est approuvée, ce que diffuse 1 écran changera.');
  });
});

describe('a decision', () => {
  it('tells the French editor of a rejection with the reason quoted, once', async () => {
    const before = await count(editorFr);
    const decision: Decided = {
      proposalId: randomUUID(),
      workspaceId: owner.userId,
      proposedBy: editorFr.userId,
      decidedBy: publisher.userId,
      outcome: 'rejected',
      reason: 'Le logo est flou',
      kind: 'update-group',
      screensTotal: 4,
      decidedAt: new Date().toISOString(),
    };
    await publishDecided(decision);
    const mail = await waitForMail(editorFr.email, before + 1);
    expect(mail.subject).toBe('[Pagecast] Votre proposition a été refusée');
    expect(mail.text.split('\n')[0]).toBe('Bonjour Jules Lefèvre,');
    expect(mail.text).toContain(
      'Giulia Rossi a refusé votre proposition dans l’espace de travail «\u202f山田 太郎\u202f»\u202f: une modification d’un groupe.',
    );
    expect(mail.text).toContain('Motif\u202f: «\u202fLe logo est flou\u202f»');
    expect(mail.text).toContain('Rien n’a changé sur les écrans.');
    expect(mail.text).toContain(`Voir la proposition\u202f: ${link(decision.proposalId)}`);
    expect(mail.html).toContain('Le logo est flou');

    await publishDecided(decision);
    await consumerIdle();
    await new Promise((r) => setTimeout(r, 300));
    expect(await count(editorFr)).toBe(before + 1);
  });

  it('tells the Japanese editor of an approval and on how many screens it applies', async () => {
    const before = await count(editorJa);
    const others = [await count(owner), await count(admin), await count(publisher)];
    const decision: Decided = {
      proposalId: randomUUID(),
      workspaceId: owner.userId,
      proposedBy: editorJa.userId,
      decidedBy: owner.userId,
      outcome: 'approved',
      reason: null,
      kind: 'create-group',
      screensTotal: 2,
      decidedAt: new Date().toISOString(),
    };
    await publishDecided(decision);
    const mail = await waitForMail(editorJa.email, before + 1);
    expect(mail.subject).toBe('【Pagecast】あなたの提案が承認されました');
    expect(mail.text.split('\n')[0]).toBe('佐藤 花子 様');
    expect(mail.text).toContain(
      '山田 太郎さんが、ワークスペース「山田 太郎」でのあなたの提案（グループの作成）を承認しました。',
    );
    expect(mail.text).toContain('2台のスクリーンに反映されています。');
    expect(mail.text).toContain(link(decision.proposalId));
    await consumerIdle();
    expect([await count(owner), await count(admin), await count(publisher)]).toEqual(others);
  });

  it('tells an editor removed from the workspace meanwhile nothing', async () => {
    const gone = await person(h, 'prop-gone', { locale: 'ja', firstName: '次郎', lastName: '鈴木' });
    await join(h, owner, gone, 'editor');
    const removed = await call(h, 'DELETE', `/api/workspaces/${owner.userId}/members/${gone.userId}`, {
      identity: owner.identity,
    });
    expect(removed.status).toBe(200);
    const before = await count(gone);
    await publishDecided({
      proposalId: randomUUID(),
      workspaceId: owner.userId,
      proposedBy: gone.userId,
      decidedBy: owner.userId,
      outcome: 'approved',
      reason: null,
      kind: 'bulk',
      screensTotal: 1,
      decidedAt: new Date().toISOString(),
    });
    await consumerIdle();
    await new Promise((r) => setTimeout(r, 300));
    expect(await count(gone)).toBe(before);
  });
});
