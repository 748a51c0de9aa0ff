// @vitest-environment jsdom
// Takeovers on the fleet page, as a person meets them: once one starts, the form is empty again (a second start
// must be typed anew) and the running one says where it goes, by group name, with its words; the log names the
// screens and keeps the message's words. The page's subtitle words one screen as one.
import { ScreenGroupList, type Takeover, type TakeoverLogEntry } from '@pagecast/contracts';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { subtitleKey } from '../src/features/fleet/components/fleet-page';
import { LogSection } from '../src/features/fleet/components/log-section';
import { TakeoverSection } from '../src/features/fleet/components/takeover-section';
import { byTestId, choose, click, json, net, pairedScreen, render, settle, setupDom, type } from './dom-harness';

const dom = setupDom();
const iso = '2026-11-27T10:00:00.000Z';
const screens = [
  pairedScreen('s1', 'Lobby'),
  pairedScreen('s2', 'Hall'),
  pairedScreen('s3', 'Bar'),
  pairedScreen('s4', 'Desk'),
];
const groups = ScreenGroupList.parse([
  {
    id: 'g1',
    name: 'Entrance hall',
    screenIds: ['s1', 's2'],
    assignment: { kind: 'none' },
    rank: 0,
    createdAt: iso,
    openingHours: null,
    alertAfterMinutes: 5,
  },
]);

async function typeText(el: HTMLTextAreaElement | null, value: string) {
  expect(el).toBeTruthy();
  const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;
  await act(async () => {
    setter?.call(el, value);
    el?.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await settle();
}
const input = (id: string) => document.querySelector<HTMLInputElement>(`#${id}`);

describe('a takeover started from the form', () => {
  it('empties the form, and the running one names its group, its screens count and its words', async () => {
    const running: Takeover[] = [];
    net.serve = ({ method, path, body }) => {
      if (path === '/api/screens') return json(screens);
      if (path === '/api/screens/takeovers' && method === 'GET') return json(running);
      if (path === '/api/screens/takeovers' && method === 'POST') {
        const request = body as { target: Takeover['target']; content: Takeover['content']; minutes: number };
        const started: Takeover = {
          id: 'tk1',
          target: request.target,
          content: request.content,
          startedAt: iso,
          endsAt: '2026-11-27T10:30:00.000Z',
          endedAt: null,
          screenIds: ['s1', 's2'],
          templateId: null,
        };
        running.push(started);
        return json(started, 201);
      }
      return undefined;
    };
    await render(<TakeoverSection groups={groups} />);
    expect(byTestId('fleet-no-takeover')).not.toBeNull();
    await choose(document.querySelector('#fleet-new-target'), 'groups');
    const box = [...document.querySelectorAll<HTMLLabelElement>('label')].find(
      (l) => l.textContent === 'Entrance hall',
    );
    await click(box?.querySelector('input'));
    await type(input('fleet-title'), 'Earthquake');
    await typeText(document.querySelector('#fleet-body'), 'Stay away from the windows.');
    await click(document.querySelector('form button[type="submit"]'));
    await click(byTestId('fleet-confirm'));
    await settle(12);

    const post = net.calls.find((c) => c.method === 'POST' && c.path === '/api/screens/takeovers');
    expect(post?.body).toMatchObject({
      target: { kind: 'groups', groupIds: ['g1'] },
      content: { kind: 'message', title: 'Earthquake', body: 'Stay away from the windows.' },
    });
    // the form is as it opened: a second start is not one click away
    expect(input('fleet-title')?.value).toBe('');
    expect(document.querySelector<HTMLTextAreaElement>('#fleet-body')?.value).toBe('');
    expect(document.querySelector<HTMLSelectElement>('#fleet-new-target')?.value).toBe('all');
    // the running one, with the focus on its heading (brought into view)
    expect(document.activeElement?.id).toBe('fleet-running-title');
    const item = byTestId('fleet-takeover-tk1');
    expect(item?.textContent).toContain('Earthquake');
    expect(item?.textContent).toContain('Stay away from the windows.');
    expect(byTestId('fleet-running-target', item ?? document)?.textContent).toBe('Entrance hall (2 screens)');
  });
});

describe('the takeover log', () => {
  it('names the screens (the first three, then how many more) and keeps the message’s words', async () => {
    const entries: TakeoverLogEntry[] = [
      {
        takeoverId: 'tk1',
        action: 'start',
        at: iso,
        by: 'me',
        screenIds: ['s1', 's2', 's3', 's4', 'gone'],
        content: { kind: 'message', title: 'Earthquake', body: 'Stay away from the windows.' },
      },
      {
        takeoverId: 'tk2',
        action: 'start',
        at: iso,
        by: 'me',
        screenIds: ['s1'],
        content: { kind: 'message', title: 'Closed', body: '' },
      },
    ];
    net.serve = ({ path }) => {
      if (path === '/api/screens') return json(screens);
      if (path === '/api/screens/takeovers/log') return json(entries);
      return undefined;
    };
    await render(<LogSection />);
    const rows = [...document.querySelectorAll('[data-testid="fleet-log"] tbody tr')];
    expect(rows.map((r) => r.querySelector('[data-testid="fleet-log-screens"]')?.textContent)).toEqual([
      'Lobby, Hall, Bar, and 2 more',
      'Lobby',
    ]);
    expect(rows[0]?.querySelector('[data-testid="fleet-log-what"]')?.textContent).toBe(
      'Message “Earthquake”Stay away from the windows.',
    );
    // on a phone each cell is a labelled line: its label is its column's name
    expect(rows[0]?.querySelector('[data-testid="fleet-log-screens"]')?.getAttribute('data-label')).toBe('Screens');
  });
});

describe('the fleet page’s subtitle', () => {
  it('words one screen as one and none as a first step, in every language', async () => {
    expect([0, 1, 2, 5].map(subtitleKey)).toEqual([
      'fleet.subtitleNone',
      'fleet.subtitleOne',
      'fleet.subtitle',
      'fleet.subtitle',
    ]);
    const i18n = dom.i18n();
    for (const lng of ['ja', 'en', 'fr', 'it']) {
      await i18n.changeLanguage(lng);
      const one = i18n.t(subtitleKey(1), { count: 1 });
      expect(one).not.toMatch(/1/);
      expect(i18n.exists('fleet.subtitleNone')).toBe(true);
    }
  });
});
