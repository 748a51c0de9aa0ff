// The header's workspace switcher and the workspace kept in the address, in jsdom with the real catalogues, query
// client, router and toasts; the network is an in-test server that refuses a workspace the person has left.
import type { WorkspaceSummary } from '@pagecast/contracts';
import { initI18n } from '@pagecast/i18n';
import { Link, Route, Routes, useLocation } from '@pagecast/router';
import { currentWorkspace, removeToast, setCurrentWorkspace } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { act } from 'react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppFrame } from '../src/app/app-frame';
import { useSwitchWorkspace } from '../src/features/workspace/model/switch-workspace';
import { byTestId, json, pageHost, settle } from './render-page';

const own: WorkspaceSummary = { id: 'u1', name: '佐藤 花子', ownerId: 'u1', role: 'owner', approvalRequired: false };
const shop: WorkspaceSummary = { id: 'w2', name: '渋谷店', ownerId: 'w2', role: 'editor', approvalRequired: false };
let workspaces: WorkspaceSummary[];
let removedFrom: Set<string>;

let i18n: Awaited<ReturnType<typeof initI18n>>;
beforeAll(async () => {
  i18n = await initI18n({ lng: 'ja' });
});

const { sent, render } = pageHost((call) => {
  const named = sent.at(-1)?.headers['x-pagecast-workspace'];
  if (named && removedFrom.has(named)) return json({ code: 'NOT_A_MEMBER', message: 'not a member' }, 403);
  if (call.path === '/api/auth/user') return json({ id: 'u1', email: 'hanako@example.test', points: 10 });
  if (call.path === '/api/workspaces') return json({ workspaces });
  if (call.path === '/api/points/summary') return json({ balance: 10 });
  if (call.path === '/api/files') return json([]);
  return json({ code: 'NOT_FOUND', message: 'no' }, 404);
});

/** A page of the signed-in frame: reads /api/files, shows the address, links to another page. */
function FilesProbe() {
  useQuery({ queryKey: ['/api/files'] });
  const location = useLocation();
  return (
    <>
      <output data-testid="address">{`${location.pathname}${location.search}`}</output>
      <output data-testid="state">{JSON.stringify(location.state ?? null)}</output>
      <Link to="/screens" data-testid="to-screens">
        screens
      </Link>
      <Link to="/invitations/t1" state={{ welcomeOwed: true }} data-testid="to-invitation">
        invitation
      </Link>
    </>
  );
}

/** An invitation's page in one's own workspace: accepting (an answer that comes later) switches to the workspace. */
function AcceptProbe() {
  const switchTo = useSwitchWorkspace('u1');
  return (
    <>
      <FilesProbe />
      <button type="button" data-testid="accept" onClick={() => setTimeout(() => switchTo('w2', '/welcome'), 0)}>
        accept
      </button>
    </>
  );
}

const app = (
  <Routes>
    <Route element={<AppFrame />}>
      <Route path="/invitations/:token" element={<AcceptProbe />} />
      <Route path="*" element={<FilesProbe />} />
    </Route>
  </Routes>
);

const filesReads = () => sent.filter((s) => s.path === '/api/files');
const address = () => byTestId('address')?.textContent;

async function choose(select: HTMLSelectElement | null, value: string) {
  expect(select).not.toBeNull();
  await act(async () => {
    if (!select) return;
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await settle();
}

beforeEach(async () => {
  workspaces = [own, shop];
  removedFrom = new Set();
  setCurrentWorkspace(undefined);
  act(() => removeToast());
  await i18n.changeLanguage('ja');
});

describe('the workspace switcher', () => {
  it('lists the workspaces with the role in Japanese; choosing one names it in every call and in the address', async () => {
    await render(app, '/files');
    const select = byTestId<HTMLSelectElement>('workspace-switcher');
    expect([...(select?.options ?? [])].map((o) => o.textContent)).toEqual(['佐藤 花子（所有者）', '渋谷店（編集者）']);
    expect(select?.value).toBe('u1');
    // the same choice heads the folded menu of a phone
    expect(byTestId<HTMLSelectElement>('workspace-switcher-menu')?.options.length).toBe(2);
    expect(filesReads().at(-1)?.headers['x-pagecast-workspace']).toBeUndefined();

    await choose(select, 'w2');
    expect(currentWorkspace()).toBe('w2');
    expect(address()).toBe('/files?w=w2');
    // the page's read is made again, this time in the shop's workspace
    expect(filesReads().at(-1)?.headers['x-pagecast-workspace']).toBe('w2');

    // a link inside the app does not carry ?w=: the frame puts it back
    await act(async () => byTestId('to-screens')?.click());
    await settle();
    expect(address()).toBe('/screens?w=w2');
    // and the page's state goes with it (a first sign-in's owed welcome, carried to an invitation)
    await act(async () => byTestId('to-invitation')?.click());
    await settle();
    expect(address()).toBe('/invitations/t1?w=w2');
    expect(byTestId('state')?.textContent).toBe('{"welcomeOwed":true}');

    // back to one's own: no header, no parameter
    await choose(byTestId<HTMLSelectElement>('workspace-switcher'), 'u1');
    expect(currentWorkspace()).toBeUndefined();
    expect(address()).toBe('/invitations/t1');
    expect(filesReads().at(-1)?.headers['x-pagecast-workspace']).toBeUndefined();
  });

  it('switching to another workspace with a page to go to goes there, the address naming it', async () => {
    // the page being left has no ?w= (one's own workspace): the frame must not put ?w= back on it instead
    await render(app, '/invitations/t1');
    await act(async () => byTestId('accept')?.click());
    await settle();
    expect(address()).toBe('/welcome?w=w2');
    expect(currentWorkspace()).toBe('w2');
    expect(filesReads().at(-1)?.headers['x-pagecast-workspace']).toBe('w2');
  });

  it('is not shown to someone who belongs to one workspace', async () => {
    workspaces = [own];
    await render(app, '/files');
    expect(byTestId('workspace-switcher')).toBeNull();
    expect(byTestId('workspace-switcher-menu')).toBeNull();
    expect(byTestId('app-header')).not.toBeNull();
  });

  it('opens the workspace a shared link names (?w=), and calls name it', async () => {
    await render(app, '/files?w=w2');
    expect(currentWorkspace()).toBe('w2');
    expect(byTestId<HTMLSelectElement>('workspace-switcher')?.value).toBe('w2');
    expect(filesReads().at(-1)?.headers['x-pagecast-workspace']).toBe('w2');
  });

  it('returns to the person’s own workspace on NOT_A_MEMBER, and says why in French', async () => {
    await i18n.changeLanguage('fr');
    removedFrom.add('w2');
    workspaces = [own];
    await render(app, '/files?w=w2');
    await settle();
    expect(currentWorkspace()).toBeUndefined();
    expect(address()).toBe('/files');
    const toast = byTestId('toast');
    expect(toast?.querySelector('.pc-toast__title')?.textContent).toBe('Retour à votre espace de travail');
    expect(toast?.textContent).toContain('Vous n’êtes plus membre de cet espace de travail');
    // read again in the person's own workspace
    expect(filesReads().at(-1)?.headers['x-pagecast-workspace']).toBeUndefined();
    expect(filesReads().length).toBeGreaterThanOrEqual(2);
  });
});
