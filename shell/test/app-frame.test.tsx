// The signed-in frame in jsdom (real catalogues, router, queries): the skip link comes first and moves the focus to
// the page, the navigation gives fleet control its place, the menu button folds the navigation (phones), and a
// Japanese name's avatar shows the family name's first character.
import { initI18n } from '@pagecast/i18n';
import { Route, Routes } from '@pagecast/router';
import { act } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppFrame } from '../src/app/app-frame';
import { json, pageHost } from './render-page';

const user = {
  id: 'u1',
  email: 'hanako@example.com',
  firstName: '花子',
  lastName: '山田',
  points: 300,
  membershipTier: 'trial',
  emailVerified: true,
};

beforeAll(async () => {
  await initI18n({ lng: 'ja' });
});

const { render } = pageHost((call) => {
  if (call.path === '/api/auth/user') return json(user);
  if (call.path === '/api/points/summary') return json({ balance: 12_300 });
  return json({}, 404);
});

const frame = (
  <Routes>
    <Route element={<AppFrame />}>
      <Route path="*" element={<h1>page</h1>} />
    </Route>
  </Routes>
);
const q = (testId: string) => document.querySelector<HTMLElement>(`[data-testid="${testId}"]`);

describe('the signed-in frame', () => {
  it('starts with a skip link that moves the focus to the page', async () => {
    await render(frame, '/');
    const focusable = document.querySelectorAll('a[href], button, select');
    expect(focusable[0]).toBe(q('skip-link'));
    expect(q('skip-link')?.textContent).toBe('本文へスキップ');
    act(() => q('skip-link')?.click());
    expect(document.activeElement).toBe(document.querySelector('main'));
  });

  it('lists fleet control in the navigation, lit on its page while Screens is not', async () => {
    await render(frame, '/screens/fleet');
    const links = [...document.querySelectorAll<HTMLAnchorElement>('[data-testid="main-nav"] a')];
    const fleet = links.find((a) => a.getAttribute('href') === '/screens/fleet');
    const screens = links.find((a) => a.getAttribute('href') === '/screens');
    expect(fleet?.textContent).toBe('フリート');
    expect(fleet?.getAttribute('aria-current')).toBe('page');
    expect(screens?.getAttribute('aria-current')).toBeNull();
  });

  it('folds the navigation behind a menu button that says whether it is open', async () => {
    await render(frame, '/');
    const toggle = q('nav-toggle');
    const nav = q('main-nav');
    expect(toggle?.getAttribute('aria-controls')).toBe(nav?.id);
    expect(toggle?.getAttribute('aria-label')).toBe('メニュー');
    expect([toggle?.getAttribute('aria-expanded'), nav?.dataset.open]).toEqual(['false', 'false']);
    act(() => toggle?.click());
    expect([toggle?.getAttribute('aria-expanded'), nav?.dataset.open]).toEqual(['true', 'true']);
    // a page chosen from it closes it
    act(() => nav?.querySelector<HTMLAnchorElement>('a[href="/files"]')?.click());
    await act(async () => new Promise((r) => setTimeout(r, 0)));
    expect(toggle?.getAttribute('aria-expanded')).toBe('false');
  });

  it('shows the balance and the family name’s first character for 山田 花子', async () => {
    await render(frame, '/');
    expect(q('points-balance')?.textContent).toBe('12,300 pt');
    expect(q('user-menu')?.textContent).toBe('山');
  });
});
