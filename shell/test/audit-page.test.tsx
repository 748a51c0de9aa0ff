// The audit log page (/workspace/audit) in jsdom with the real catalogues and query client; the network is an
// in-test account service holding one workspace's members and audit entries.
import {
  AUDIT_SYSTEM_ACTORS,
  AuditAction,
  AuditObjectType,
  type AuditRecord,
  type WorkspaceMember,
  type WorkspaceSummary,
} from '@pagecast/contracts';
import { initI18n } from '@pagecast/i18n';
import { setCurrentWorkspace } from '@pagecast/ui';
import { act } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UserMenu } from '../src/features/header/components/user-menu';
import { AuditPage } from '../src/features/workspace/components/audit-page';
import { MembersPage } from '../src/features/workspace/components/members-page';
import { auditActionWord, auditActorWord, auditObjectWord } from '../src/features/workspace/model/audit';
import { byTestId, type Call, click, json, pageHost, settle, text } from './render-page';

let workspaces: WorkspaceSummary[];
let members: WorkspaceMember[];
let entries: AuditRecord[];
let refuse: ((call: Call) => Response | undefined) | undefined;
let i18n: Awaited<ReturnType<typeof initI18n>>;

beforeAll(async () => {
  i18n = await initI18n({ lng: 'ja' });
});

const member = (userId: string, role: WorkspaceMember['role'], lastName: string, firstName: string) => ({
  userId,
  email: `${userId}@example.test`,
  firstName,
  lastName,
  role,
  addedAt: '2026-12-01T00:00:00.000Z',
});

const entry = (seq: number, over: Partial<AuditRecord>): AuditRecord => ({
  id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
  workspaceId: 'u1',
  actorUserId: 'u2',
  address: '203.0.113.7',
  action: 'file.updated',
  object: { type: 'file', id: `f${seq}` },
  before: null,
  after: null,
  at: '2026-12-05T12:00:00.000Z',
  seq,
  prevHash: '',
  hash: `h${seq}`,
  diff: [],
  ...over,
});

const { sent, render } = pageHost((call) => {
  const refused = refuse?.(call);
  if (refused) return refused;
  if (call.path === '/api/auth/user') return json({ id: 'u1', email: 'u1@example.test' });
  if (call.path === '/api/workspaces') return json({ workspaces });
  if (/^\/api\/workspaces\/[^/]+\/members$/.test(call.path)) return json({ members });
  if (/^\/api\/workspaces\/[^/]+\/invitations$/.test(call.path)) return json({ invitations: [] });
  if (/^\/api\/workspaces\/[^/]+\/audit\.csv$/.test(call.path))
    return new Response('seq,at\n3,2026-12-05T12:00:00.000Z\n', { headers: { 'content-type': 'text/csv' } });
  if (/^\/api\/workspaces\/[^/]+\/audit$/.test(call.path)) {
    const last = sent[sent.length - 1];
    const cursor = new URLSearchParams(last?.search).get('cursor');
    // two pages: the newest two entries, then the rest after cursor "2"
    return cursor
      ? json({ entries: entries.slice(2), nextCursor: null })
      : json({ entries: entries.slice(0, 2), nextCursor: entries.length > 2 ? '2' : null });
  }
  return json({ code: 'NOT_FOUND', message: 'no' }, 404);
});

const auditReads = () => sent.filter((s) => s.path.endsWith('/audit'));
async function choose(id: string, value: string) {
  const field = byTestId<HTMLSelectElement | HTMLInputElement>(id);
  expect(field).not.toBeNull();
  await act(async () => {
    if (!field) return;
    const proto = field instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(field, value);
    field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  });
  await settle();
}

let downloads: { href: string; name: string }[];
beforeEach(async () => {
  workspaces = [{ id: 'u1', name: '佐藤商店', ownerId: 'u1', role: 'owner', approvalRequired: false }];
  members = [member('u1', 'owner', '佐藤', '花子'), member('u2', 'editor', '鈴木', '一郎')];
  entries = [
    entry(3, {
      action: 'file.published',
      diff: [{ path: ['published'], before: false, after: true }],
    }),
    entry(2, {
      actorUserId: 'gone7',
      action: 'screen.rebooted' as AuditAction, // a code this page does not know yet
      object: { type: 'screen', id: 's9' },
      diff: [{ path: ['name'], before: '受付', after: 'ロビー' }],
    }),
    entry(1, { action: 'member.added', object: { type: 'member', id: 'u2' }, diff: [] }),
  ];
  refuse = undefined;
  setCurrentWorkspace(undefined);
  downloads = [];
  // jsdom has no object URLs; the download is the anchor's click, recorded here
  URL.createObjectURL = () => 'blob:audit';
  URL.revokeObjectURL = () => {};
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ href: this.href, name: this.download });
  });
  await i18n.changeLanguage('ja');
});
afterEach(() => vi.restoreAllMocks());

describe('the audit log of the owner (Japanese)', () => {
  it('words every action code and object type the services record, in the four languages', () => {
    for (const lng of ['ja', 'en', 'fr', 'it']) {
      for (const code of AuditAction.options)
        expect(i18n.exists(`workspace.audit.actions.${code}`, { lng }), `${lng} ${code}`).toBe(true);
      for (const type of AuditObjectType.options)
        expect(i18n.exists(`workspace.audit.objects.${type}`, { lng }), `${lng} ${type}`).toBe(true);
    }
  });

  it('lists the rows newest first with the action in words, the member’s name and the difference', async () => {
    await render(<AuditPage />, '/workspace/audit');
    const rows = [...document.querySelectorAll('tbody tr')].map((r) => r.getAttribute('data-testid'));
    expect(rows).toEqual(['audit-row-3', 'audit-row-2']);
    expect(text('audit-row-3')).toContain('2026/12/05');
    expect(text('audit-row-3')).toContain('鈴木 一郎');
    expect(text('audit-action-3')).toBe('ファイルを公開');
    expect(text('audit-row-3')).toContain('ファイル f3');
    expect(text('audit-row-3')).toContain('203.0.113.7');
    // the difference shows when its row is expanded
    expect(text('audit-diff-3')).toBe('1か所の変更');
    await click(byTestId('audit-diff-toggle-3'));
    expect(byTestId('audit-diff-toggle-3')?.getAttribute('aria-expanded')).toBe('true');
    expect(text('audit-diff-3')).toBe('1か所の変更published：false から true へ');
    // an actor the members list does not know any more is a former member (their id for an auditor in the title);
    // an unknown action shows as its code
    expect(text('audit-who-2')).toBe('退会したメンバー');
    expect(byTestId('audit-who-2')?.querySelector('[title]')?.getAttribute('title')).toBe('gone7');
    expect(text('audit-row-2')).not.toContain('gone7');
    expect(byTestId('audit-who-3')?.querySelector('[title]')).toBeNull();
    expect(text('audit-action-2')).toBe('screen.rebooted');
    await click(byTestId('audit-diff-toggle-2'));
    expect(text('audit-diff-2')).toBe('1か所の変更name：受付 から ロビー へ');
    expect(text('audit-count')).toBe('2件を表示中');

    await click(byTestId('audit-more'));
    expect(auditReads().map((s) => s.search)).toEqual(['', '?cursor=2']);
    expect(text('audit-action-1')).toBe('メンバーを追加');
    expect(text('audit-row-1')).toContain('変更なし');
    expect(byTestId('audit-more')).toBeNull();
  });

  it('sends each filter as the query, and a date range as the reader’s whole days', async () => {
    await render(<AuditPage />, '/workspace/audit');
    await choose('audit-action', 'file.published');
    expect(auditReads().at(-1)?.search).toBe('?action=file.published');
    await choose('audit-actor', 'u2');
    await choose('audit-object-type', 'file');
    expect(auditReads().at(-1)?.search).toBe('?actor=u2&action=file.published&objectType=file');
    await choose('audit-from', '2026-12-01');
    await choose('audit-to', '2026-12-05');
    const query = new URLSearchParams(auditReads().at(-1)?.search);
    expect(query.get('from')).toBe(new Date(2026, 11, 1, 0, 0, 0, 0).toISOString());
    expect(query.get('to')).toBe(new Date(2026, 11, 5, 23, 59, 59, 999).toISOString());
  });

  it('offers a former member in the actor filter, by their id, and keeps offering them once chosen', async () => {
    await render(<AuditPage />, '/workspace/audit');
    const options = () =>
      [...(byTestId<HTMLSelectElement>('audit-actor')?.options ?? [])].map((o) => [o.value, o.textContent]);
    expect(options()).toEqual([
      ['', 'すべて'],
      ['u1', '佐藤 花子'],
      ['u2', '鈴木 一郎'],
      ['gone7', '退会したメンバー（gone7）'],
    ]);
    await choose('audit-actor', 'gone7');
    expect(auditReads().at(-1)?.search).toBe('?actor=gone7');
    expect(byTestId<HTMLSelectElement>('audit-actor')?.value).toBe('gone7');
    // the next reads hold none of their rows: they stay on offer, and a current member is never one
    entries = [entries[0] as AuditRecord];
    await choose('audit-actor', 'u2');
    expect(options().map(([value]) => value)).toEqual(['', 'u1', 'u2', 'gone7']);
    expect(text('audit-who-3')).toBe('鈴木 一郎');
  });

  it('exports the CSV of the same filters as a download', async () => {
    await render(<AuditPage />, '/workspace/audit');
    await choose('audit-action', 'member.added');
    await click(byTestId('audit-export'));
    const csv = sent.filter((s) => s.path.endsWith('.csv'));
    expect(csv.map((s) => `${s.path}${s.search}`)).toEqual(['/api/workspaces/u1/audit.csv?action=member.added']);
    expect(downloads).toHaveLength(1);
    expect(downloads[0]?.name).toMatch(/^audit-u1-\d{4}-\d{2}-\d{2}\.csv$/);
  });

  it('says an empty log, and a filter that matches nothing, in words', async () => {
    entries = [];
    await render(<AuditPage />, '/workspace/audit');
    expect(text('audit-empty')).toBe(i18n.t('workspace.audit.empty'));
    await choose('audit-action', 'group.deleted');
    expect(text('audit-empty')).toBe('条件に合う記録はありません。');
  });

  it('says the server’s refusal in words', async () => {
    refuse = (call) =>
      call.path.endsWith('/audit') ? json({ code: 'FORBIDDEN_ROLE', message: 'forbidden' }, 403) : undefined;
    await render(<AuditPage />, '/workspace/audit');
    expect(text('audit-error')).toBe('あなたの役割ではこの操作はできません');
    expect(byTestId('audit-row-3')).toBeNull();
  });

  it('is linked from the members page and the user menu', async () => {
    await render(<MembersPage />, '/workspace/members');
    expect(byTestId('members-audit-link')?.getAttribute('href')).toBe('/workspace/audit');
    await render(<UserMenu user={{ id: 'u1', email: 'u1@example.test' } as never} />, '/');
    await click(byTestId('user-menu'));
    expect(byTestId('menu-audit')?.textContent).toBe('監査ログ');
  });
});

describe('the audit log in another workspace (French)', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('fr');
    members = [member('w9', 'owner', 'Durand', 'Claire'), member('u2', 'editor', 'Rossi', 'Marco')];
    setCurrentWorkspace('w9');
  });

  it('reads and exports the log of the workspace it acts in, for an administrator', async () => {
    workspaces = [{ id: 'w9', name: 'Mairie de Lyon', ownerId: 'w9', role: 'admin', approvalRequired: false }];
    await render(<AuditPage />, '/workspace/audit?w=w9');
    // the heading names the workspace and the reader's role there, as the members page's does
    expect(text('workspace-page-subtitle')).toBe('Mairie de Lyon · votre rôle\u202f: Administrateur');
    expect(text('audit-action-3')).toBe('Fichier publié');
    expect(text('audit-row-3')).toContain('Marco Rossi');
    expect(text('audit-row-3')).toContain('5 déc. 2026');
    await click(byTestId('audit-diff-toggle-3'));
    expect(text('audit-diff-3')).toBe('1 modificationpublished\u202f: de false à true');
    expect(text('audit-row-2')).toContain('Écran s9');
    // the removed member in French, with their id at hand
    expect(text('audit-who-2')).toBe('Un ancien membre');
    expect(byTestId('audit-who-2')?.querySelector('[title]')?.getAttribute('title')).toBe('gone7');
    expect(
      [...(byTestId<HTMLSelectElement>('audit-actor')?.options ?? [])].map((o) => o.textContent).slice(-1),
    ).toEqual(['Un ancien membre (gone7)']);
    expect(text('audit-count')).toBe('2 entrées affichées');
    expect(auditReads()[0]?.path).toBe('/api/workspaces/w9/audit');
    expect(auditReads()[0]?.headers['x-pagecast-workspace']).toBe('w9');
    await click(byTestId('audit-export'));
    const csv = sent.filter((s) => s.path.endsWith('.csv'));
    expect(csv.map((s) => s.path)).toEqual(['/api/workspaces/w9/audit.csv']);
    // a plain link would send no header and read the person's own log: the export names the workspace
    expect(csv[0]?.headers['x-pagecast-workspace']).toBe('w9');
  });

  it('gives a viewer no link and no read', async () => {
    workspaces = [
      { id: 'u1', name: 'Moi', ownerId: 'u1', role: 'owner', approvalRequired: false },
      { id: 'w9', name: 'Mairie de Lyon', ownerId: 'w9', role: 'viewer', approvalRequired: false },
    ];
    await render(<MembersPage />, '/workspace/members?w=w9');
    expect(text('workspace-page-subtitle')).toBe('Mairie de Lyon · votre rôle\u202f: Lecteur');
    expect(byTestId('members-audit-link')).toBeNull();
    await render(<UserMenu user={{ id: 'u1', email: 'u1@example.test' } as never} />, '/');
    await click(byTestId('user-menu'));
    expect(byTestId('menu-members')).not.toBeNull();
    expect(byTestId('menu-audit')).toBeNull();
    await render(<AuditPage />, '/workspace/audit?w=w9');
    expect(text('audit-refused')).toBe(
      'Seuls le propriétaire et les administrateurs de cet espace de travail peuvent lire son journal d’audit.',
    );
    expect(auditReads()).toEqual([]);
  });
});

describe('changes no member made, and the billing, marketplace and fleet codes', () => {
  const added = [
    'group.order-set',
    'alert-rules.updated',
    'points.bought',
    'plan.upgraded',
    'plan.downgrade-scheduled',
    'plan.downgrade-cancelled',
    'plan.downgraded',
    'plan.renewal-failed',
    'plan.trial-ended',
    'licence.bought',
    'sale.completed',
  ] as const;
  const addedTypes = ['group-order', 'alert-rules', 'points-purchase', 'plan', 'licence', 'sale'] as const;

  it('words each of them in Japanese and French, never as the code itself', async () => {
    for (const lng of ['ja', 'fr']) {
      await i18n.changeLanguage(lng);
      for (const code of added) {
        expect(AuditAction.options).toContain(code);
        expect(auditActionWord(i18n.t, code), `${lng} ${code}`).not.toBe(code);
      }
      for (const type of addedTypes) {
        expect(AuditObjectType.options).toContain(type);
        expect(auditObjectWord(i18n.t, type), `${lng} ${type}`).not.toBe(type);
      }
    }
    await i18n.changeLanguage('ja');
  });

  it('names the disaster feed and the renewal job as Pagecast, looking up no person for them', async () => {
    entries = [
      entry(2, {
        actorUserId: AUDIT_SYSTEM_ACTORS.alerts,
        address: '',
        action: 'takeover.started',
        object: { type: 'takeover', id: 't1' },
      }),
      entry(1, {
        actorUserId: AUDIT_SYSTEM_ACTORS.billing,
        address: '',
        action: 'plan.downgraded',
        object: { type: 'plan', id: 'u1' },
      }),
    ];
    await render(<AuditPage />, '/workspace/audit');
    expect(text('audit-row-2')).toContain('Pagecast（災害アラート）');
    expect(text('audit-row-2')).not.toContain('system:');
    expect(text('audit-action-1')).toBe('ダウングレードを適用');
    expect(text('audit-row-1')).toContain('Pagecast（プランの更新）');
    expect(text('audit-row-1')).toContain('プラン u1');
    expect(sent.filter((s) => s.path.includes('system'))).toEqual([]);
  });

  it('says them in French too', async () => {
    await i18n.changeLanguage('fr');
    entries = [
      entry(2, {
        actorUserId: AUDIT_SYSTEM_ACTORS.marketplace,
        address: '',
        action: 'sale.completed',
        object: { type: 'sale', id: 'p1' },
      }),
      entry(1, { action: 'points.bought', object: { type: 'points-purchase', id: 'u2:7' } }),
    ];
    await render(<AuditPage />, '/workspace/audit');
    expect(text('audit-row-2')).toContain('Pagecast (marketplace)');
    expect(text('audit-action-2')).toBe('Contenu vendu');
    expect(text('audit-row-2')).toContain('Vente p1');
    expect(text('audit-action-1')).toBe('Points achetés');
    expect(text('audit-row-1')).toContain('鈴木');
    expect(auditActorWord(i18n.t, AUDIT_SYSTEM_ACTORS.alerts, () => undefined)).toBe(
      'Pagecast (alertes de catastrophe)',
    );
    // a source this page does not know yet shows as itself, and is still no person
    expect(auditActorWord(i18n.t, 'system:other', () => 'Someone')).toBe('system:other');
    await i18n.changeLanguage('ja');
  });
});
