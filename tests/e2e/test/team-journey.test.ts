// A team in the browser, one real stack: an owner registers, invites an editor (ja), a publisher (fr), an emergency
// broadcaster (en) and a viewer (ja) from the members page; the mails arrive in those languages; each accepts through
// the link in a browser of their own (the editor registers from it, verifies in another tab and is brought back to
// it by the first sign-in there; the others sign in from it). The owner turns
// approval on; the editor gives a group another playlist, which waits (the display does not change); the publisher,
// mailed, approves it on the proposals page and the display changes; the editor is mailed. The broadcaster starts an
// emergency message from a template (the paired display shows it) and has no way to edit a playlist; the viewer sees
// screens, files and playlists and changes nothing; the owner removes the editor while the editor's page is open,
// which is back in its own workspace within 2 s (measured, printed); the audit log shows it all, with before and
// after.
//
// Steps taken through the API, each covered in the browser elsewhere: uploading the files (files.test.ts), the
// playlists (player-playlist.test.ts), entering the display's pairing code (screens.test.ts; the display itself is a
// real /screen page here), the group with its playlist and the takeover template (fleet-page.test.ts).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { Member } from './account';
import { mailedInvitation, mailedLink, mailsTo, screenshots, toastText, uniqueEmail } from './account-flows';
import { baseUrl, openBrowser, type Session } from './browser';
import {
  type Api,
  apiFor,
  createPlaylist,
  openPlayerBrowser,
  type PlayerBrowser,
  pairDisplay,
  signedInMember,
  until,
  uploadPdf,
} from './player-helpers';
import { type Language, screenReady, setLanguage } from './screens';

type Role = 'editor' | 'publisher' | 'broadcaster' | 'viewer';
interface Person {
  role: Role;
  language: Language;
  email: string;
  session?: Session;
  api?: Api;
  userId?: string;
}

const ownerEmail = uniqueEmail('team-owner');
const ownerPassword = 'owner password 2026';
const people: Record<Role, Person> = {
  editor: { role: 'editor', language: 'ja', email: uniqueEmail('team-editor') },
  publisher: { role: 'publisher', language: 'fr', email: '' },
  broadcaster: { role: 'broadcaster', language: 'en', email: '' },
  viewer: { role: 'viewer', language: 'ja', email: '' },
};
const editorPassword = 'editor password 2026';

let owner: Session;
let ownerApi: Api;
let workspace = '';
let display: PlayerBrowser;
let screenId = '';
let groupId = '';
let lobby = '';
let lunch = '';
let fileLobby = '';
let fileLunch = '';
/** the file the group's playlist shows on the display now */
let groupPlays = '';
const sessions: Session[] = [];

afterAll(async () => {
  await display?.close();
  for (const s of sessions) await s.close();
});

async function browser(language: Language): Promise<Session> {
  const session = await openBrowser({ locale: language === 'ja' ? 'ja-JP' : `${language}-${language.toUpperCase()}` });
  sessions.push(session);
  await session.page.goto('/');
  await setLanguage(session.page, language);
  return session;
}

/** The session cookie a browser signed in with, as API calls. */
async function apiOf(session: Session, member: Member): Promise<Api> {
  const cookie = (await session.context.cookies()).find((c) => c.name === 'pc_session');
  if (!cookie) throw new Error('the browser holds no session');
  return apiFor(member, `pc_session=${cookie.value}`);
}

/** A call acting in the owner's workspace (the header the pages send). */
async function inWorkspace(api: Api, method: string, url: string, body?: unknown) {
  const res = await fetch(`${baseUrl()}${url}`, {
    method,
    headers: {
      cookie: api.cookie,
      'x-pagecast-workspace': workspace,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, code: (text.startsWith('{') ? JSON.parse(text).code : undefined) as string | undefined };
}

/**
 * Accepts the invitation on its page and waits for the page it leads to; a failure says what the server answered
 * and where the page went (an accept that failed, or one that led elsewhere, reads differently).
 */
async function acceptOn(page: Page, leadsTo: string) {
  const answered = page.waitForResponse(
    (r) => r.request().method() === 'POST' && /\/api\/invitations\/[^/]+\/accept$/.test(new URL(r.url()).pathname),
  );
  await page.getByTestId('invitation-accept').click();
  const res = await answered;
  expect(res.status(), `the accept answered ${res.status()}: ${await res.text()}`).toBe(200);
  await page.waitForURL(leadsTo).catch((err: Error) => {
    throw new Error(`the accept led to ${page.url()}, not ${leadsTo}: ${err.message}`);
  });
}

/** Signs in on the login page (any language: the fields by name). */
async function signIn(page: Page, email: string, password: string) {
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByTestId('login-submit').click();
}

/** The takeover's words on the display, or null while it shows none. */
const displayMessage = (page: Page) =>
  page
    .getByTestId('display-message')
    .evaluate(
      (box) => [...box.querySelectorAll('h1, .pc-display__message-body')].map((el) => el.textContent).join(''),
      undefined,
      {
        timeout: 200,
      },
    )
    .catch(() => null);

const showsFile = (page: Page, fileId: string) =>
  page.locator(`.pc-display__page[data-file="${fileId}"]`).waitFor({ timeout: 20_000 });

describe('a team journey', () => {
  it('the owner registers in the browser; files, playlists, a paired display and a group playing a playlist', async () => {
    owner = await browser('ja');
    const { page } = owner;
    await page.goto('/register');
    await page.getByLabel('姓', { exact: true }).fill('佐藤');
    await page.getByLabel('名', { exact: true }).fill('花子');
    await page.getByLabel('メールアドレス').fill(ownerEmail);
    await page.getByLabel('パスワード', { exact: true }).fill(ownerPassword);
    await page.getByTestId('register-submit').click();
    await page.waitForURL((url) => url.pathname === '/verify-email');
    await page.goto((await mailedLink(ownerEmail, 'verify-email')).link);
    await page.locator('[data-testid="verify-email-page"][data-state="success"]').waitFor();
    await page.goto('/login');
    await signIn(page, ownerEmail, ownerPassword);
    await page.waitForURL('**/welcome');
    ownerApi = await apiOf(owner, { email: ownerEmail, password: ownerPassword, firstName: '花子', lastName: '佐藤' });
    const me = await ownerApi.json<{ id: string }>('GET', '/api/auth/user');
    workspace = me.id;

    fileLobby = (await uploadPdf(ownerApi, 'vertical.pdf', 'Lobby loop', 1)).id;
    fileLunch = (await uploadPdf(ownerApi, 'cmykjpeg.pdf', 'Lunch menu', 1)).id;
    lobby = await createPlaylist(ownerApi, 'Lobby', [fileLobby]);
    lunch = await createPlaylist(ownerApi, 'Lunch', [fileLunch]);
    display = await openPlayerBrowser(null);
    screenId = await pairDisplay(ownerApi, display.page, { name: 'Entrance display', timeZone: 'Asia/Tokyo' });
    const group = await ownerApi.json<{ id: string }>('POST', '/api/screens/groups', {
      name: 'Entrance',
      screenIds: [screenId],
      assignment: { kind: 'playlist', playlistId: lobby },
    });
    groupId = group.id;
    groupPlays = fileLobby;
    await showsFile(display.page, fileLobby);
    await ownerApi.json('POST', '/api/screens/takeover-templates', {
      name: 'Closed',
      content: { kind: 'message', title: '本日休業', body: 'またのご来店をお待ちしております。' },
      minutes: 30,
    });
  }, 240_000);

  it('the owner invites four people from the members page; the mails come in ja, fr and en', async () => {
    // accounts of their own already, in their languages (their later mails come in those)
    const publisher = await signedInMember({ locale: 'fr' });
    const broadcaster = await signedInMember({ locale: 'en' });
    const viewer = await signedInMember({ locale: 'ja' });
    people.publisher.email = publisher.member.email;
    people.publisher.api = publisher;
    people.broadcaster.email = broadcaster.member.email;
    people.broadcaster.api = broadcaster;
    people.viewer.email = viewer.member.email;
    people.viewer.api = viewer;

    const { page } = owner;
    await page.goto('/workspace/members');
    await page.getByTestId('invite-card').waitFor();
    for (const person of Object.values(people)) {
      // the form empties itself once the previous invitation is sent: typed before that, the address would be lost
      await until('the invite form is empty', async () => (await page.getByTestId('invite-email').inputValue()) === '');
      await page.getByTestId('invite-email').fill(person.email);
      await page.getByTestId('invite-role').selectOption(person.role);
      await page.getByTestId('invite-language').selectOption(person.language);
      await page.getByTestId('invite-submit').click();
      await page.getByTestId('invitations-card').getByText(person.email).waitFor();
      await until(
        'the invite form is emptied',
        async () => (await page.getByTestId('invite-email').inputValue()) === '',
      );
    }
    const mail = async (email: string) => {
      await mailedInvitation(email);
      return (await mailsTo(email)).filter((m) => /\/invitations\//.test(m.text ?? '')).at(-1);
    };
    const ja = await mail(people.editor.email);
    expect(ja?.subject).toContain('への招待が届いています');
    expect(ja?.text).toContain('「編集者」として招待しました');
    expect(ja?.text).toContain('佐藤 花子');
    const fr = await mail(people.publisher.email);
    expect(fr?.subject).toContain('vous invite dans');
    expect(fr?.text).toContain('avec le rôle « Approbateur »');
    const en = await mail(people.broadcaster.email);
    expect(en?.subject).toContain('invited you to');
    expect(en?.text).toContain('as Emergency broadcaster');
    const viewerMail = await mail(people.viewer.email);
    expect(viewerMail?.text).toContain('「閲覧者」として招待しました');
  }, 120_000);

  it('each accepts through the link in a browser of their own: the editor registers from it, the others sign in', async () => {
    // the editor has no account: register from the invitation, verify, sign in, back to the link, accept
    const editor = await browser('ja');
    people.editor.session = editor;
    const link = await mailedInvitation(people.editor.email);
    await editor.page.goto(link);
    expect(await editor.page.getByTestId('invitation-role').textContent()).toBe('編集者');
    await editor.page.getByTestId('invitation-register').click();
    await editor.page.waitForURL('**/register');
    await editor.page.getByLabel('姓', { exact: true }).fill('鈴木');
    await editor.page.getByLabel('名', { exact: true }).fill('一郎');
    await editor.page.getByLabel('メールアドレス').fill(people.editor.email);
    await editor.page.getByLabel('パスワード', { exact: true }).fill(editorPassword);
    await editor.page.getByTestId('register-submit').click();
    await editor.page.waitForURL((url) => url.pathname === '/verify-email');
    // the mail's verification link opens another tab, without the first tab's sessionStorage; signing in there for
    // the first time comes back to the invitation (its link is not opened again), and the welcome follows accepting
    const tab = await editor.context.newPage();
    await tab.goto((await mailedLink(people.editor.email, 'verify-email')).link);
    await tab.locator('[data-testid="verify-email-page"][data-state="success"]').waitFor();
    await tab.getByTestId('verify-to-login').click();
    await tab.waitForURL('**/login');
    await signIn(tab, people.editor.email, editorPassword);
    await tab.waitForURL(`**${link}`);
    await acceptOn(tab, `**/welcome?w=${workspace}`);
    await editor.page.close();
    editor.page = tab;
    people.editor.api = await apiOf(editor, {
      email: people.editor.email,
      password: editorPassword,
      firstName: '一郎',
      lastName: '鈴木',
    });

    for (const role of ['publisher', 'broadcaster', 'viewer'] as const) {
      const person = people[role];
      const session = await browser(person.language);
      person.session = session;
      const invitation = await mailedInvitation(person.email);
      await session.page.goto(invitation);
      await session.page.getByTestId('invitation-login').click();
      await session.page.waitForURL('**/login');
      const member = person.api?.member as Member;
      await signIn(session.page, member.email, member.password);
      // signing in from the invitation comes back to it
      await session.page.waitForURL(`**${invitation}`);
      await acceptOn(session.page, `**/?w=${workspace}`);
      person.api = await apiOf(session, member);
    }
    for (const person of Object.values(people)) {
      person.userId = (await (person.api as Api).json<{ id: string }>('GET', '/api/auth/user')).id;
    }
    const { members } = await ownerApi.json<{ members: Array<{ userId: string; role: string }> }>(
      'GET',
      `/api/workspaces/${workspace}/members`,
    );
    expect(Object.fromEntries(members.map((m) => [m.userId, m.role]))).toEqual({
      [workspace]: 'owner',
      [people.editor.userId as string]: 'editor',
      [people.publisher.userId as string]: 'publisher',
      [people.broadcaster.userId as string]: 'broadcaster',
      [people.viewer.userId as string]: 'viewer',
    });
  }, 240_000);

  it('approval: the owner turns it on; the editor’s playlist for the group waits; the publisher approves; the display changes; both are mailed', async () => {
    const { page } = owner;
    await page.goto('/workspace/members');
    const toggle = page.getByTestId('approval-switch');
    await until('the setting is read', () => toggle.isEnabled());
    // the switch's box is drawn by its label (the input itself is visually hidden): a person clicks the label
    await page.getByTestId('approval-card').locator('label.pc-switch').click();
    // on once the change is under way: React puts the controlled box back until the mutation's pending state is
    // rendered (the query client tells it a moment after the click), so read at once it could still be off
    await until('the switch shows on', () => toggle.isChecked());
    await toastText(page, '承認が必要になりました');
    expect(await page.getByTestId('approval-state').textContent()).toBe('オン：編集者の変更は承認待ちになります。');

    // the editor gives the group the Lunch playlist on the fleet page: it waits, and says so
    const editor = (people.editor.session as Session).page;
    const editorId = people.editor.userId as string;
    await editor.goto(`/screens/fleet?w=${workspace}`);
    await screenReady(editor);
    const row = editor.getByTestId('fleet-groups').locator('li').filter({ hasText: 'Entrance' });
    await row.getByText('「Entrance」を編集').click();
    // the setting reaches the screens service through a bucket: the note shows once the page knows it
    await row.getByTestId('approval-note').waitFor();
    await editor.locator(`#fleet-group-${groupId}-plays`).selectOption(`playlist:${lunch}`);
    await row.getByRole('button', { name: '保存' }).click();
    await editor.getByTestId('approval-waiting').waitFor();
    expect(await toastText(editor, '承認待ちになりました')).toContain('この変更はまだ反映されていません');
    type Proposal = { id: string; proposedBy: string; status: string; screenIds: string[] };
    const { proposals } = await ownerApi.json<{ proposals: Proposal[] }>(
      'GET',
      '/api/screens/proposals?status=pending',
    );
    expect(proposals).toHaveLength(1);
    const proposal = proposals[0] as Proposal;
    expect(proposal).toMatchObject({ proposedBy: editorId, status: 'pending', screenIds: [screenId] });
    // nothing played changes while it waits
    const groups = await ownerApi.json<Array<{ id: string; assignment: unknown }>>('GET', '/api/screens/groups');
    expect(groups.find((g) => g.id === groupId)?.assignment).toEqual({ kind: 'playlist', playlistId: lobby });
    await new Promise((r) => setTimeout(r, 2000));
    expect(await display.page.locator(`.pc-display__page[data-file="${fileLunch}"]`).count()).toBe(0);
    await display.page.locator(`.pc-display__page[data-file="${fileLobby}"]`).waitFor({ timeout: 1000 });

    // the publisher (French) is mailed, opens the proposals page and approves: the display changes
    let toPublisher: Awaited<ReturnType<typeof mailsTo>>[number] | undefined;
    await until('the publisher is mailed the proposal', async () => {
      toPublisher = (await mailsTo(people.publisher.email)).find((m) => /\/screens\/proposals\//.test(m.text ?? ''));
      return Boolean(toPublisher);
    });
    expect(toPublisher?.subject).toContain('propose une modification de 1 écran');
    const pub = (people.publisher.session as Session).page;
    await pub.goto(`/screens/proposals?w=${workspace}`);
    await pub.getByTestId(`proposal-${proposal.id}`).getByRole('link').click();
    await pub.getByTestId('proposal-page').waitFor();
    // the difference: the group's playlist before and after, by name
    const difference = (await pub.getByTestId(`proposal-object-${groupId}`).textContent()) ?? '';
    expect(difference).toContain('Lobby');
    expect(difference).toContain('Lunch');
    expect(difference).not.toContain(lunch);
    // the agenda it would give the screen, beside the one it has now
    const agenda = (await pub.getByTestId(`proposal-agenda-${screenId}`).textContent()) ?? '';
    expect(agenda).toMatch(/Lobby.*Lunch/s);
    await pub.screenshot({ path: path.join(screenshots, 'team-proposal-fr.png'), fullPage: true });
    const approvedAt = Date.now();
    await pub.getByTestId('proposal-approve').click();
    await showsFile(display.page, fileLunch);
    groupPlays = fileLunch;
    console.log(`[team] the approved playlist shown on the display ${Date.now() - approvedAt} ms after the approval`);
    await toastText(pub, 'Proposition approuvée');
    let toEditor: Awaited<ReturnType<typeof mailsTo>>[number] | undefined;
    await until('the editor is mailed the approval', async () => {
      toEditor = (await mailsTo(people.editor.email)).find((m) => m.subject?.includes('あなたの提案が承認されました'));
      return Boolean(toEditor);
    });
    expect(toEditor?.text).toContain('1台のスクリーン');
  }, 180_000);

  it('the broadcaster starts an emergency message from a template (the display shows it) and cannot edit a playlist', async () => {
    const { page } = people.broadcaster.session as Session;
    await page.goto(`/screens/fleet?w=${workspace}`);
    await screenReady(page);
    const template = page.getByTestId('fleet-templates').locator('li').filter({ hasText: 'Closed' });
    await template.getByRole('button', { name: 'Start “Closed”' }).click();
    const started = Date.now();
    await page.getByRole('dialog').getByTestId('fleet-confirm').click();
    await until('the display shows the message', async () => (await displayMessage(display.page)) !== null);
    console.log(
      `[team] the broadcaster's takeover shown on the display ${Date.now() - started} ms after the confirmation`,
    );
    expect(await displayMessage(display.page)).toBe('本日休業またのご来店をお待ちしております。');

    // no way to edit a playlist: the list without create, edit or delete; the API refuses
    await page.goto(`/playbook?w=${workspace}`);
    await page.getByTestId('playlist-row').filter({ hasText: 'Lobby' }).waitFor();
    for (const id of ['playlist-new', 'playlist-edit', 'playlist-delete'])
      expect(await page.getByTestId(id).count(), id).toBe(0);
    const api = people.broadcaster.api as Api;
    expect(await inWorkspace(api, 'PUT', `/api/playlists/${lobby}/items`, { fileIds: [] })).toEqual({
      status: 403,
      code: 'FORBIDDEN_ROLE',
    });
    expect(await inWorkspace(api, 'POST', '/api/playlists', { name: 'Mine' })).toEqual({
      status: 403,
      code: 'FORBIDDEN_ROLE',
    });

    // the broadcaster ends it: the display goes back to the group's playlist
    await page.goto(`/screens/fleet?w=${workspace}`);
    await page.getByTestId('fleet-running').getByRole('button').first().click();
    await page.getByRole('dialog').getByTestId('fleet-confirm').click();
    await showsFile(display.page, groupPlays);
    const items = await ownerApi.json<Array<{ fileId: string }>>('GET', `/api/playlists/${lobby}/items`);
    expect(items.map((i) => i.fileId)).toEqual([fileLobby]);
  }, 120_000);

  it('the viewer sees screens, files and playlists and changes nothing', async () => {
    const { page } = people.viewer.session as Session;
    await page.goto(`/screens?w=${workspace}`);
    await page.getByTestId(`screen-${screenId}`).waitFor();
    expect(await page.getByTestId(`screen-${screenId}`).textContent()).toContain('Entrance display');
    await page.goto(`/files?w=${workspace}`);
    await page.getByText('Lobby loop').first().waitFor();
    expect(await page.getByTestId('files-upload').count()).toBe(0);
    await page.goto(`/playbook?w=${workspace}`);
    await page.getByTestId('playlist-row').filter({ hasText: 'Lobby' }).waitFor();
    for (const id of ['playlist-new', 'playlist-edit', 'playlist-delete'])
      expect(await page.getByTestId(id).count(), id).toBe(0);
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: path.join(screenshots, 'team-viewer-playlists.png'), fullPage: true });

    const api = people.viewer.api as Api;
    const refused = { status: 403, code: 'FORBIDDEN_ROLE' };
    expect(await inWorkspace(api, 'PUT', `/api/playlists/${lobby}/items`, { fileIds: [] })).toEqual(refused);
    expect(await inWorkspace(api, 'PUT', `/api/screens/groups/${groupId}`, { name: 'Renamed' })).toEqual(refused);
    expect(
      await inWorkspace(api, 'POST', '/api/screens/takeovers', {
        target: { kind: 'all' },
        content: { kind: 'message', title: 'x', body: '' },
        minutes: 5,
      }),
    ).toEqual(refused);
    expect(await inWorkspace(api, 'DELETE', `/api/files/${fileLobby}`)).toEqual(refused);
    // nothing changed
    const groups = await ownerApi.json<Array<{ id: string; name: string }>>('GET', '/api/screens/groups');
    expect(groups.find((g) => g.id === groupId)?.name).toBe('Entrance');
    const items = await ownerApi.json<Array<{ fileId: string }>>('GET', `/api/playlists/${lobby}/items`);
    expect(items.map((i) => i.fileId)).toEqual([fileLobby]);
    expect((await ownerApi.call('GET', `/api/files/${fileLobby}`)).status).toBe(200);
  }, 120_000);

  it('the owner removes the editor while the editor’s page is open: it is back in its own workspace within 2 s', async () => {
    const editor = (people.editor.session as Session).page;
    await editor.goto(`/playbook?w=${workspace}`);
    const row = editor.getByTestId('playlist-row').filter({ hasText: 'Lobby' });
    await row.waitFor();
    // an editor may edit it here, until the removal
    expect(await row.getByTestId('playlist-edit').count()).toBe(1);
    // the page records, itself, when it shows it is back in its own workspace (no ?w=, the toast saying why)
    await editor.evaluate(() => {
      const w = window as unknown as { backAt?: number };
      const check = () => {
        if (w.backAt) return;
        if (!new URL(location.href).searchParams.has('w') && document.querySelector('[data-testid="toast"]'))
          w.backAt = Date.now();
      };
      new MutationObserver(check).observe(document, { subtree: true, childList: true });
      setInterval(check, 10);
    });
    const { page } = owner;
    await page.goto('/workspace/members');
    const editorId = people.editor.userId as string;
    await page.getByTestId(`member-remove-${editorId}`).click();
    const removedAt = Date.now();
    await page.getByTestId('member-remove-confirm').click();
    await editor.waitForFunction(() => Boolean((window as unknown as { backAt?: number }).backAt), undefined, {
      timeout: 10_000,
    });
    const backAt = await editor.evaluate(() => (window as unknown as { backAt: number }).backAt);
    const ms = backAt - removedAt;
    console.log(`[team] the removed editor's open page was back in its own workspace ${ms} ms after the removal`);
    expect(ms).toBeLessThan(2000);
    expect(await toastText(editor, 'ご自身のワークスペースに戻りました')).toContain(
      'そのワークスペースのメンバーではなくなったため',
    );
    expect(new URL(editor.url()).pathname).toBe('/playbook');
    await page.getByTestId(`member-${editorId}`).waitFor({ state: 'detached' });
    expect(await inWorkspace(people.editor.api as Api, 'GET', '/api/playlists')).toEqual({
      status: 403,
      code: 'NOT_A_MEMBER',
    });
  }, 120_000);

  it('the owner’s audit log shows the invitations, acceptances, the takeover and the removal with before and after', async () => {
    type Entry = {
      seq: number;
      action: string;
      actorUserId: string;
      object: { type: string; id: string };
      before: Record<string, unknown> | null;
      after: Record<string, unknown> | null;
    };
    let entries: Entry[] = [];
    const counts = () => {
      const of = (action: string) => entries.filter((e) => e.action === action).length;
      return {
        invitations: of('invitation.created'),
        acceptances: of('member.added'),
        takeoverStarted: of('takeover.started'),
        takeoverEnded: of('takeover.ended'),
        removals: of('member.removed'),
        proposals: of('proposal.created'),
        approvals: of('proposal.approved'),
      };
    };
    const expected = {
      invitations: 4,
      acceptances: 4,
      takeoverStarted: 1,
      takeoverEnded: 1,
      removals: 1,
      proposals: 1,
      approvals: 1,
    };
    await expect
      .poll(
        async () => {
          ({ entries } = await ownerApi.json<{ entries: Entry[] }>(
            'GET',
            `/api/workspaces/${workspace}/audit?limit=200`,
          ));
          return counts();
        },
        { timeout: 30_000, interval: 500 },
      )
      .toEqual(expected);
    const removal = entries.find((e) => e.action === 'member.removed') as Entry;
    expect(removal.actorUserId).toBe(workspace);
    expect(removal.before).toMatchObject({ role: 'editor' });
    expect(removal.after).toBeNull();
    const takeover = entries.find((e) => e.action === 'takeover.started') as Entry;
    expect(takeover.actorUserId).toBe(people.broadcaster.userId);
    expect(takeover.before).toBeNull();
    expect(takeover.after).toMatchObject({ content: { kind: 'message', title: '本日休業' } });
    const invited = entries.filter((e) => e.action === 'invitation.created');
    expect(invited.every((e) => e.before === null && e.actorUserId === workspace)).toBe(true);
    expect(new Set(invited.map((e) => `${e.after?.role}:${e.after?.language}`))).toEqual(
      new Set(['editor:ja', 'publisher:fr', 'broadcaster:en', 'viewer:ja']),
    );
    const proposed = entries.find((e) => e.action === 'proposal.created') as Entry;
    expect(proposed.actorUserId).toBe(people.editor.userId);
    const approved = entries.find((e) => e.action === 'proposal.approved') as Entry;
    expect(approved.actorUserId).toBe(people.publisher.userId);
    // the group's change, made by the approval: its playlist before and after
    const groupChange = entries.find((e) => e.action === 'group.updated' && e.object.id === groupId) as Entry;
    expect(groupChange.before).toMatchObject({ assignment: { kind: 'playlist', playlistId: lobby } });
    expect(groupChange.after).toMatchObject({ assignment: { kind: 'playlist', playlistId: lunch } });
    const joined = entries.filter((e) => e.action === 'member.added');
    expect(new Set(joined.map((e) => e.after?.role))).toEqual(
      new Set(['editor', 'publisher', 'broadcaster', 'viewer']),
    );

    const { page } = owner;
    await page.goto('/workspace/audit');
    await page.getByTestId('audit-card').waitFor();
    await page.getByTestId(`audit-row-${removal.seq}`).waitFor();
    const words = await page.locator('[data-testid^="audit-action-"]').allTextContents();
    expect(words.filter((w) => w === '招待を送信').length).toBe(4);
    expect(words.filter((w) => w === 'メンバーを追加').length).toBe(4);
    expect(words).toContain('緊急表示を開始');
    expect(words).toContain('緊急表示を終了');
    expect(words).toContain('メンバーを削除');
    expect(words).toContain('提案を承認');
    await page.getByTestId(`audit-diff-toggle-${removal.seq}`).click();
    const diff = (await page.getByTestId(`audit-diff-${removal.seq}`).textContent()) ?? '';
    expect(diff).toContain('editor');
    await page.screenshot({ path: path.join(screenshots, 'team-audit-log.png'), fullPage: true });
  }, 120_000);
});
