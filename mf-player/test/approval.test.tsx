// @vitest-environment jsdom
// Approval in the player's pages: an editor of a workspace that asks for approval is told before saving that a
// change of what screens play will wait, and after a 202 that it waits (with the way to its proposal), never that it
// was made; the proposals list (pending first, names from the members) and one proposal (its difference, the agenda
// now and if approved, approve, reject with a reason, withdraw) for the roles that may.
import { type Proposal, ProposalDetail, type Screen, ScreenGroupList, type WorkspaceRole } from '@pagecast/contracts';
import { setCurrentWorkspace } from '@pagecast/ui';
import { Route, Routes } from '@pagecast/router';
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ProposalPage } from '../src/features/approvals/components/proposal-page';
import { ProposalsPage } from '../src/features/approvals/components/proposals-page';
import { GroupsSection } from '../src/features/fleet/components/groups-section';
import { ScreensPage } from '../src/features/screens/components/screens-page';
import { AssignmentEditor } from '../src/features/screens/components/assignment-editor';
import { type Call, button, byTestId, click, json, net, render, setupDom, settle, where } from './dom-harness';

const dom = setupDom();
const iso = '2026-12-06T09:30:00.000Z';
const screen: Screen = {
  id: 's1',
  name: 'Lobby',
  timeZone: 'Asia/Tokyo',
  assignment: { kind: 'none' },
  online: false,
  lastSeenAt: null,
  nowPlaying: null,
  screenSize: null,
  appVersion: null,
  pairedAt: iso,
  rotation: 0,
  openingHours: null,
} as Screen;
const groups = ScreenGroupList.parse([
  {
    id: 'g1',
    name: 'Boutiques',
    screenIds: ['s1'],
    assignment: { kind: 'none' },
    rank: 0,
    createdAt: iso,
    openingHours: null,
    alertAfterMinutes: 5,
  },
]);
const members = [
  { userId: 'w9', email: 'owner@example.test', firstName: 'Claire', lastName: 'Durand', role: 'owner', addedAt: iso },
  { userId: 'ed', email: 'ed@example.test', firstName: '一郎', lastName: '鈴木', role: 'editor', addedAt: iso },
  { userId: 'me', email: 'me@example.test', firstName: 'Hanako', lastName: 'Sato', role: 'publisher', addedAt: iso },
];
const proposal = (over: Partial<Proposal> = {}): Proposal => ({
  id: 'p1',
  workspaceId: 'w9',
  proposedBy: 'ed',
  change: { kind: 'update-screen', screenId: 's1', request: { assignment: { kind: 'playlist', playlistId: 'pl1' } } },
  screenIds: ['s1', 's2'],
  status: 'pending',
  createdAt: iso,
  decidedBy: null,
  decidedAt: null,
  reason: null,
  ...over,
});
const agendaOf = (playing: unknown) => ({
  screenId: 's1',
  timeZone: 'Asia/Tokyo',
  from: '2026-12-06T00:00:00.000Z',
  to: '2026-12-13T00:00:00.000Z',
  entries: [
    {
      from: '2026-12-06T00:00:00.000Z',
      to: '2026-12-13T00:00:00.000Z',
      playing,
      because: { rule: 'screen' },
      stopped: [],
    },
  ],
  licenceEnds: [],
});
const detail = (over: Partial<Proposal> = {}) =>
  ProposalDetail.parse({
    proposal: proposal(over),
    objects: [
      {
        type: 'screen',
        id: 's1',
        diff: [
          { path: ['assignment', 'kind'], before: 'none', after: 'playlist' },
          { path: ['assignment', 'playlistId'], after: 'pl1' },
        ],
      },
    ],
    agenda: [agendaOf({ kind: 'playlist', playlistId: 'pl1' })],
    current: [agendaOf({ kind: 'none' })],
    agendaScreensTotal: 3,
  });

/** The person acts in workspace w9 with `role`; w9 asks for approval or not. */
function workspace(role: WorkspaceRole, approvalRequired: boolean, serve: (call: Call) => Response | undefined) {
  setCurrentWorkspace('w9');
  net.serve = (call) =>
    serve(call) ??
    (call.path === '/api/workspaces'
      ? json({ workspaces: [{ id: 'w9', name: 'Mairie', ownerId: 'w9', role, approvalRequired }] })
      : call.path === '/api/workspaces/w9/members'
        ? json({ members })
        : call.path === '/api/screens'
          ? json([screen])
          : call.path === '/api/screens/groups'
            ? json(groups)
            : call.path === '/api/playlists'
              ? json([
                  {
                    id: 'pl1',
                    userId: 'w9',
                    name: 'Déjeuner',
                    description: null,
                    itemCount: 1,
                    createdAt: iso,
                    updatedAt: iso,
                  },
                ])
              : undefined);
}
afterEach(() => setCurrentWorkspace(undefined));
/** the proposal page under its route, so that it reads its id from the address */
const proposalPage = (
  <Routes>
    <Route path="screens/proposals/:proposalId" element={<ProposalPage />} />
  </Routes>
);
const text = (id: string) => byTestId(id)?.textContent ?? '';
const posts = () => net.calls.filter((c) => c.method !== 'GET');

describe('a change that waits for approval (Japanese editor)', () => {
  it('says before saving that it will wait, and after the 202 that it waits, with the way to its proposal', async () => {
    await dom.i18n().changeLanguage('ja');
    workspace('editor', true, ({ method, path }) =>
      method === 'PUT' && path === '/api/screens/s1' ? json({ proposal: proposal() }, 202) : undefined,
    );
    await render(<AssignmentEditor screen={screen} />);
    expect(text('approval-note')).toContain('承認者または管理者が承認するまで反映されません');
    await click(button('保存'));
    expect(posts().map((c) => `${c.method} ${c.path}`)).toEqual(['PUT /api/screens/s1']);
    expect(text('approval-waiting')).toContain('この変更はまだ反映されていません');
    expect(byTestId('approval-waiting-link')?.getAttribute('href')).toBe('/screens/proposals/p1');
  });

  it('says nothing of approval when the workspace does not ask for it, and a change made is not "waiting"', async () => {
    await dom.i18n().changeLanguage('ja');
    workspace('editor', false, ({ method, path }) =>
      method === 'PUT' && path === '/api/screens/s1' ? json(screen) : undefined,
    );
    await render(<AssignmentEditor screen={screen} />);
    expect(byTestId('approval-note')).toBeNull();
    await click(button('保存'));
    expect(posts()).toHaveLength(1);
    expect(byTestId('approval-waiting')).toBeNull();
  });

  it('tells no publisher that their change waits (they decide)', async () => {
    await dom.i18n().changeLanguage('ja');
    workspace('publisher', true, () => undefined);
    await render(<AssignmentEditor screen={screen} />);
    expect(byTestId('approval-note')).toBeNull();
  });
});

describe('a group change that waits (French editor)', () => {
  it('shows the group’s change as waiting, not saved', async () => {
    await dom.i18n().changeLanguage('fr');
    workspace('editor', true, ({ method, path }) =>
      method === 'PUT' && path === '/api/screens/groups/g1'
        ? json({ proposal: proposal({ id: 'p7', change: { kind: 'update-group', groupId: 'g1', request: {} } }) }, 202)
        : undefined,
    );
    await render(<GroupsSection groups={groups} screens={[screen]} />);
    expect(text('approval-note')).toContain('attendent l’approbation d’un approbateur ou d’un administrateur');
    await click(button('Enregistrer'));
    expect(posts().map((c) => `${c.method} ${c.path}`)).toEqual(['PUT /api/screens/groups/g1']);
    expect(text('approval-waiting')).toContain('Cette modification n’est pas encore faite');
    expect(byTestId('approval-waiting-link')?.getAttribute('href')).toBe('/screens/proposals/p7');
  });

  it('shows a deletion that waits in the section', async () => {
    await dom.i18n().changeLanguage('fr');
    workspace('editor', true, ({ method, path }) =>
      method === 'DELETE' && path === '/api/screens/groups/g1'
        ? json({ proposal: proposal({ id: 'p8', change: { kind: 'delete-group', groupId: 'g1' } }) }, 202)
        : undefined,
    );
    await render(<GroupsSection groups={groups} screens={[screen]} />);
    await click(button('Supprimer le groupe'));
    const dialog = document.querySelector('[role="dialog"]') as HTMLElement;
    await click(button('Supprimer le groupe', dialog));
    expect(posts().map((c) => `${c.method} ${c.path}`)).toEqual(['DELETE /api/screens/groups/g1']);
    expect(byTestId('approval-waiting-link')?.getAttribute('href')).toBe('/screens/proposals/p8');
  });
});

describe('the proposals list (Japanese publisher)', () => {
  const list = [
    proposal({ id: 'p2', status: 'approved', decidedBy: 'me', decidedAt: iso, createdAt: '2026-12-06T10:00:00.000Z' }),
    proposal({ id: 'p1' }),
  ];
  it('lists the pending ones with who, what, when and how many screens; every status puts pending first', async () => {
    await dom.i18n().changeLanguage('ja');
    workspace('publisher', true, ({ path, search }) =>
      path === '/api/screens/proposals'
        ? json({
            proposals: search.get('status') === 'pending' ? [list[1]] : search.get('status') ? [] : list,
            nextCursor: null,
          })
        : undefined,
    );
    await render(<ProposalsPage />, '/screens/proposals');
    const row = text('proposal-p1');
    expect(row).toContain('スクリーン「Lobby」の変更');
    expect(row).toContain('鈴木 一郎');
    expect(row).toContain('2台のスクリーン');
    expect(row).toContain('承認待ち');
    const filter = byTestId('proposals-filter') as HTMLSelectElement;
    const setter = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')?.set;
    await act(async () => {
      setter?.call(filter, 'all');
      filter.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await settle();
    const ids = [...document.querySelectorAll('[data-testid^="proposal-p"]')].map((el) =>
      el.getAttribute('data-testid'),
    );
    expect(ids).toEqual(['proposal-p1', 'proposal-p2']);
    expect(net.calls.filter((c) => c.path === '/api/screens/proposals').map((c) => c.search.get('status'))).toEqual([
      'pending',
      null,
    ]);
  });

  it('shows the pending count beside the way to the proposals on the Screens page', async () => {
    await dom.i18n().changeLanguage('ja');
    workspace('publisher', true, ({ path }) =>
      path === '/api/screens/proposals' ? json({ proposals: [list[1]], nextCursor: null }) : undefined,
    );
    await render(<ScreensPage />, '/screens');
    expect(byTestId('proposals-link')?.getAttribute('href')).toBe('/screens/proposals');
    expect(text('proposals-pending')).toBe('1件が承認待ち');
  });
});

describe('one proposal (French)', () => {
  it('shows the difference and the agenda now and if approved, and approves it (publisher)', async () => {
    await dom.i18n().changeLanguage('fr');
    workspace('publisher', true, ({ method, path }) =>
      path === '/api/screens/proposals/p1' && method === 'GET'
        ? json(detail())
        : path === '/api/screens/proposals/p1/approve'
          ? json(proposal({ status: 'approved', decidedBy: 'me', decidedAt: iso }))
          : undefined,
    );
    await render(proposalPage, '/screens/proposals/p1');
    expect(text('proposal-title')).toBe('Modification de l’écran «\u202fLobby\u202f»');
    expect(text('proposal-by')).toBe('一郎 鈴木');
    // fields and kinds in words, a playlist's id by its name (the page never shows an id where a name exists)
    expect([...(byTestId('proposal-diff-s1')?.querySelectorAll('li') ?? [])].map((li) => li.textContent)).toEqual([
      'Ce qui est diffusé / Type\u202f: de Rien à Une liste de lecture',
      'Ce qui est diffusé / Liste de lecture\u202f: de (rien) à Déjeuner',
    ]);
    const agenda = text('proposal-agenda-s1');
    expect(agenda).toContain('Situation actuelle');
    expect(agenda).toContain('Si elle est approuvée');
    expect(agenda).toContain('Déjeuner');
    expect(text('proposal-agenda-more')).toBe('Le programme de 2 autres écrans change aussi.');
    expect(byTestId('proposal-withdraw')).toBeNull();
    await click(byTestId('proposal-approve'));
    expect(posts().map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/screens/proposals/p1/approve']);
  });

  it('rejects with a reason: none is refused in French, the server’s refusal is worded, a reason is sent', async () => {
    await dom.i18n().changeLanguage('fr');
    let decided = false;
    workspace('publisher', true, ({ method, path }) => {
      if (path === '/api/screens/proposals/p1' && method === 'GET') return json(detail());
      if (path === '/api/screens/proposals/p1/reject') {
        if (!decided) {
          decided = true;
          return json({ code: 'PROPOSAL_DECIDED', message: 'decided' }, 409);
        }
        return json(proposal({ status: 'rejected', decidedBy: 'me', decidedAt: iso, reason: 'Trop tôt' }));
      }
      return undefined;
    });
    await render(proposalPage, '/screens/proposals/p1');
    await click(byTestId('proposal-reject'));
    const dialog = () => document.querySelector('[role="dialog"]') as HTMLElement;
    expect(dialog().textContent).toContain('Indiquez pourquoi');
    await click(byTestId('proposal-reject-confirm'));
    expect(dialog().textContent).toContain(dom.i18n().t('validation.reasonRequired'));
    expect(posts()).toHaveLength(0);
    const reason = byTestId('proposal-reason-input') as unknown as HTMLInputElement;
    const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;
    await act(async () => {
      setter?.call(reason, 'Trop tôt');
      reason.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await click(byTestId('proposal-reject-confirm'));
    expect(dialog().textContent).toContain('Cette proposition a déjà été approuvée, refusée ou retirée');
    await click(byTestId('proposal-reject-confirm'));
    expect(posts().map((c) => c.body)).toEqual([{ reason: 'Trop tôt' }, { reason: 'Trop tôt' }]);
    expect(document.querySelector('[role="dialog"]')).toBeNull();
  });

  it('lets its editor withdraw it, and not decide it', async () => {
    await dom.i18n().changeLanguage('fr');
    workspace('editor', true, ({ method, path }) =>
      path === '/api/screens/proposals/p1' && method === 'GET'
        ? json(detail({ proposedBy: 'me' }))
        : method === 'DELETE' && path === '/api/screens/proposals/p1'
          ? json(proposal({ proposedBy: 'me', status: 'withdrawn', decidedBy: 'me', decidedAt: iso }))
          : undefined,
    );
    await render(proposalPage, '/screens/proposals/p1');
    expect(text('proposal-agenda-s1')).toContain('Si elle est approuvée');
    expect(byTestId('proposal-approve')).toBeNull();
    expect(byTestId('proposal-reject')).toBeNull();
    expect(byTestId('proposal-withdraw')?.textContent).toBe('Retirer');
    await click(byTestId('proposal-withdraw'));
    expect(posts().map((c) => `${c.method} ${c.path}`)).toEqual(['DELETE /api/screens/proposals/p1']);
  });

  it('offers a viewer nothing to do, and says a proposal not found in French', async () => {
    await dom.i18n().changeLanguage('fr');
    workspace('viewer', true, ({ path }) =>
      path === '/api/screens/proposals/p9' ? json({ code: 'PROPOSAL_NOT_FOUND', message: 'no' }, 404) : undefined,
    );
    await render(proposalPage, '/screens/proposals/p9');
    expect(text('proposal-error')).toBe('Cette proposition est introuvable');
    expect(document.querySelectorAll('.pa-actions')).toHaveLength(0);
    expect(where()).toBe('/screens/proposals/p9');
  });
});

describe('a decided proposal (Japanese)', () => {
  it('says who rejected it and why, offers nothing to do, and shows no agenda (it changes nothing more)', async () => {
    await dom.i18n().changeLanguage('ja');
    workspace('publisher', true, ({ path }) =>
      path === '/api/screens/proposals/p1'
        ? json({
            ...detail({ status: 'rejected', decidedBy: 'w9', decidedAt: iso, reason: '昼のメニューには早すぎます' }),
            objects: [
              { type: 'screen', id: 's1', diff: [{ path: ['assignment', 'playlistId'], before: 'pl1', after: null }] },
            ],
            agenda: [],
            current: [],
            agendaScreensTotal: 0,
          })
        : undefined,
    );
    await render(proposalPage, '/screens/proposals/p1');
    expect(text('proposal-status')).toBe('却下');
    expect(text('proposal-decided')).toContain('Durand Claire');
    expect(text('proposal-reason')).toBe('昼のメニューには早すぎます');
    // null is worded as "none", never the word null
    expect(text('proposal-diff-s1')).toBe('再生内容 / プレイリスト：Déjeuner から （なし） へ');
    expect(document.querySelector('[data-testid^="proposal-agenda"]')).toBeNull();
    expect(document.querySelectorAll('.pa-actions')).toHaveLength(0);
  });
});
