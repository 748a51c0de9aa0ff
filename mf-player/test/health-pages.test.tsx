// @vitest-environment jsdom
// The owner's fleet health pages in jsdom with the real i18n catalogues, query client and router: each
// state's reason in words, the thumbnail as the screen hangs, the incident log, the rotation and opening-hours
// settings (add, remove, the server's refusal on its field), the group threshold, and the fleet view (counts as
// filters, paging, ?state= and ?screen=). Only the network is an in-test server (fetch) answering in the contracts'
// shapes (each answer is parsed with its contract schema first).
import {
  FleetHealth,
  type FleetHealthCounts,
  type Screen,
  ScreenAgenda,
  ScreenGroupList,
  ScreenHealth,
  ScreenIncidentList,
} from '@pagecast/contracts';
import { act } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { HealthSummary } from '../src/lib/health/components/health-summary';
import { FleetHealthView } from '../src/features/health/components/fleet-health-page';
import { AgendaSection } from '../src/features/fleet/components/agenda-section';
import { GroupsSection } from '../src/features/fleet/components/groups-section';
import { ScreenCard } from '../src/features/screens/components/screen-card';
import { ScreenSettings } from '../src/features/screens/components/screen-settings';
import { titlesOf } from '../src/lib/titles';
import { allByTestId, button, byTestId, click, json, net, render, settle, setupDom, type, where } from './dom-harness';

const NOW = Date.parse('2026-11-27T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const MIN = 60_000;
const titles = titlesOf(
  [
    { id: 'f-menu', title: 'Menu' },
    { id: 'f-prices', title: 'Prices' },
    { id: 'f-clip', title: 'Clip B', kind: 'video' },
  ],
  [{ id: 'pl-lunch', name: 'Lunch' }],
  [{ id: 'tk1', content: { kind: 'message', title: 'Evacuate', body: 'Use the stairs' } }],
);

function health(over: Partial<ScreenHealth> & Pick<ScreenHealth, 'state'>): ScreenHealth {
  return ScreenHealth.parse({
    screenId: 's1',
    name: 'Lobby',
    since: null,
    lastSeenAt: iso(NOW - 5000),
    shows: null,
    expected: { kind: 'playlist', playlistId: 'pl-lunch' },
    lastImageError: null,
    rotation: 0,
    openingHours: null,
    groupIds: [],
    alertAfterMinutes: 5,
    ...over,
  });
}
const page = (fileId: string, n: number, shownAt: number, error: ScreenHealth['lastImageError'] = null) => ({
  kind: 'page' as const,
  fileId,
  page: n,
  shownAt: iso(shownAt),
  holdSeconds: 10,
  loaded: error === null,
  error: error?.error ?? null,
});

const dom = setupDom();
const i18n = () => dom.i18n();
// the pages of the file the thumbnails show, for every test of this file
net.fallback = ({ path }) =>
  path === '/api/files/f-menu/pages'
    ? json(
        [1, 2, 3].map((n) => ({
          id: `p${n}`,
          fileId: 'f-menu',
          pageNumber: n,
          imagePath: `/media/page-menu-${n}`,
          thumbPath: `/media/thumb-menu-${n}`,
          displayDuration: 10,
          createdAt: iso(NOW),
        })),
      )
    : undefined;

const reason = () => byTestId('health-reason')?.textContent;

describe('a screen’s health, in words', () => {
  it('offline: since when, or never seen', async () => {
    const lastSeen = NOW - 10 * MIN;
    await render(
      <HealthSummary
        health={health({ state: 'offline', since: iso(lastSeen), lastSeenAt: iso(lastSeen) })}
        now={NOW}
        titles={titles}
      />,
    );
    expect(byTestId('health-state')?.textContent).toBe('Offline');
    const time = new Intl.DateTimeFormat('en', { dateStyle: 'short', timeStyle: 'medium' }).format(lastSeen);
    expect(reason()).toBe(`No heartbeat since ${time}`);
    // an offline screen shows no thumbnail of what it showed last, nor how long
    expect(byTestId('health-thumb')?.dataset.kind).toBe('none');
    expect(byTestId('health-shown-for')).toBeNull();
    await render(<HealthSummary health={health({ state: 'offline', lastSeenAt: null })} now={NOW} titles={titles} />);
    expect(reason()).toBe('Has not reported since it was paired');
  });

  it('closed: outside its opening hours, drawn black', async () => {
    await render(
      <HealthSummary
        health={health({ state: 'closed', shows: { kind: 'blank', shownAt: iso(NOW - MIN) } })}
        now={NOW}
        titles={titles}
      />,
    );
    expect(byTestId('health-state')?.textContent).toBe('Closed');
    expect(reason()).toBe('Outside its opening hours: the screen is black');
    expect(byTestId('health-thumb')?.dataset.kind).toBe('blank');
    expect(byTestId('health-thumb')?.querySelector('img')).toBeNull();
  });

  it('broken: which page of which file and the error, and the last image error with its time', async () => {
    const at = NOW - 3 * MIN;
    const failed = { error: 'not-found' as const, fileId: 'f-menu', page: 3, at: iso(at) };
    await render(
      <HealthSummary
        health={health({
          state: 'broken',
          since: iso(at),
          shows: page('f-menu', 3, at, failed),
          lastImageError: failed,
        })}
        now={NOW}
        titles={titles}
      />,
    );
    // a word that fits a page and a video alike
    expect(byTestId('health-state')?.textContent).toBe('Playback error');
    expect(reason()).toBe('Page 3 of “Menu” did not draw (image not found)');
    const time = new Intl.DateTimeFormat('en', { dateStyle: 'short', timeStyle: 'medium' }).format(at);
    expect(byTestId('health-last-error')?.textContent).toBe(`${time}: page 3 of “Menu” (image not found)`);
    expect(byTestId('health-last-error')?.parentElement?.textContent).toBe(
      `Last playback error: ${time}: page 3 of “Menu” (image not found)`,
    );
    // French: a narrow no-break space before the label's colon (the translation's, not the code's)
    await act(async () => {
      await i18n().changeLanguage('fr');
    });
    expect(
      byTestId('health-last-error')?.parentElement?.textContent?.startsWith('Dernière erreur de lecture\u202f: '),
    ).toBe(true);
    expect(byTestId('health-state')?.textContent).toBe('Erreur de lecture');
    await act(async () => {
      await i18n().changeLanguage('ja');
    });
    expect(byTestId('health-state')?.textContent).toBe('再生エラー');
    await act(async () => {
      await i18n().changeLanguage('en');
    });
  });

  it('frozen: how long the page has shown and what its page asks; the thumbnail turned as the screen hangs', async () => {
    const frozen = health({
      state: 'frozen',
      since: iso(NOW - 5 * MIN),
      shows: page('f-menu', 2, NOW - 6 * MIN - 5000),
      rotation: 90,
    });
    await render(<HealthSummary health={frozen} now={NOW} titles={titles} />);
    expect(byTestId('health-state')?.textContent).toBe('Frozen');
    expect(reason()).toBe('The same page for 6 min; its page asks 10 s');
    expect(byTestId('health-shown-for')?.textContent).toBe('Shown for 6 min');
    // the owner's thumbnail of that page, in a portrait frame (90°)
    const thumb = byTestId('health-thumb');
    expect(thumb?.dataset.rotation).toBe('90');
    expect(thumb?.className).toContain('ph-thumb--portrait');
    expect(thumb?.querySelector('img')?.getAttribute('src')).toBe('/media/thumb-menu-2');
    expect(thumb?.querySelector('img')?.getAttribute('alt')).toBe('What the screen shows: “Menu”, page 2');
    expect(byTestId('health-last-error')?.textContent).toBe('None');

    await act(async () => {
      await i18n().changeLanguage('fr');
    });
    expect(reason()).toBe('La même page depuis 6 min ; sa page demande 10 s');
  });

  it('a video: frozen at its second, broken as a video, and what it shows named by its second, in each language', async () => {
    const video = (extra: object) => ({ ...page('f-menu', 1, NOW - MIN), ...extra });
    const frozen = health({
      state: 'frozen',
      since: iso(NOW - MIN),
      shows: video({ video: { second: 75.4, frozen: true } }),
    });
    await render(<HealthSummary health={frozen} now={NOW} titles={titles} />);
    expect(byTestId('health-state')?.textContent).toBe('Frozen');
    expect(reason()).toBe('The video “Menu” stopped at 1:15');
    const words: Record<string, string> = {
      ja: '動画「Menu」が1:15で止まりました',
      fr: 'La vidéo «\u202fMenu\u202f» s’est arrêtée à 1:15',
      it: 'Il video «Menu» si è fermato a 1:15',
    };
    for (const [lng, text] of Object.entries(words)) {
      await act(async () => {
        await i18n().changeLanguage(lng);
      });
      expect(reason()).toBe(text);
    }
    await act(async () => {
      await i18n().changeLanguage('en');
    });
    const failed = { error: 'decode-failed' as const, fileId: 'f-menu', page: 1, at: iso(NOW - MIN) };
    const broken = health({
      state: 'broken',
      since: iso(NOW - MIN),
      shows: video({ loaded: false, error: 'decode-failed', video: { second: 0 } }),
      lastImageError: failed,
    });
    await render(<HealthSummary health={broken} now={NOW} titles={titles} />);
    expect(reason()).toBe('The video “Menu” did not play (damaged video)');
    const at = new Intl.DateTimeFormat('en', { dateStyle: 'short', timeStyle: 'medium' }).format(NOW - MIN);
    // the last error line speaks of the video, not of its page 1 as a damaged image
    expect(byTestId('health-last-error')?.textContent).toBe(`${at}: the video “Menu” (damaged video)`);
    // a video known by its kind (the files list), though the display now shows something else
    const earlier = { error: 'decode-failed' as const, fileId: 'f-clip', page: 1, at: iso(NOW - MIN) };
    await render(
      <HealthSummary
        health={health({
          state: 'broken',
          since: iso(NOW - MIN),
          shows: page('f-menu', 2, NOW - MIN),
          lastImageError: earlier,
        })}
        now={NOW}
        titles={titles}
      />,
    );
    expect(byTestId('health-last-error')?.textContent).toBe(`${at}: the video “Clip B” (damaged video)`);
    expect(reason()).toBe('The video “Clip B” did not play (damaged video)');
    await act(async () => {
      await i18n().changeLanguage('ja');
    });
    expect(byTestId('health-last-error')?.textContent).toContain('動画「Clip B」（動画が壊れています）');
    await act(async () => {
      await i18n().changeLanguage('en');
    });
    const wrong = health({
      state: 'wrong',
      since: iso(NOW - 2 * MIN),
      shows: video({ video: { second: 7 } }),
      expected: { kind: 'file', fileId: 'f-prices' },
    });
    await render(<HealthSummary health={wrong} now={NOW} titles={titles} />);
    expect(reason()).toBe('For 2 min: shows the video “Menu” at 0:07, should show “Prices”');
  });

  it('wrong content: for how long, what it shows and what it should, by title', async () => {
    const wrong = health({ state: 'wrong', since: iso(NOW - 2 * MIN), shows: page('f-prices', 1, NOW - 3 * MIN) });
    await render(<HealthSummary health={wrong} now={NOW} titles={titles} />);
    expect(byTestId('health-state')?.textContent).toBe('Wrong content');
    expect(reason()).toBe('For 2 min: shows “Prices”, page 1, should show the playlist “Lunch”');
    expect(byTestId('health-thumb')?.className).toContain('ph-thumb--landscape');
    await act(async () => {
      await i18n().changeLanguage('ja');
    });
    expect(byTestId('health-state')?.textContent).toBe('表示内容の誤り');
    expect(reason()).toBe('2分前から、プレイリスト「Lunch」ではなく「Prices」の1ページを表示しています');
  });

  it('under a takeover: says so (not "ok"), and draws the message by its title', async () => {
    await render(
      <HealthSummary
        health={health({
          state: 'ok',
          shows: { kind: 'message', takeoverId: 'tk1', shownAt: iso(NOW - 90_000) },
          expected: { kind: 'message', takeoverId: 'tk1' },
        })}
        now={NOW}
        titles={titles}
      />,
    );
    expect(byTestId('health-state')?.dataset.state).toBe('ok');
    expect(byTestId('health-state')?.dataset.note).toBe('takeover');
    expect(byTestId('health-state')?.textContent).toBe('Taken over');
    expect(reason()).toBe('Shows the takeover “Evacuate”, ahead of its schedule');
    expect(byTestId('health-thumb')?.dataset.kind).toBe('message');
    expect(byTestId('health-thumb')?.textContent).toBe('the takeover “Evacuate”');
    expect(byTestId('health-shown-for')?.textContent).toBe('Shown for 1 min');
  });

  it('the incident log: state, from, to (or ongoing) and the e-mails', async () => {
    net.serve = ({ path }) =>
      path === '/api/screens/s1/incidents'
        ? json(
            ScreenIncidentList.parse([
              {
                id: 'i2',
                screenId: 's1',
                state: 'offline',
                startedAt: iso(NOW - 10 * MIN),
                openedAt: iso(NOW - 5 * MIN),
                endedAt: null,
                alertedAt: iso(NOW - 4 * MIN),
                recoveryAlertedAt: null,
              },
              {
                id: 'i1',
                screenId: 's1',
                state: 'frozen',
                startedAt: iso(NOW - 60 * MIN),
                openedAt: iso(NOW - 55 * MIN),
                endedAt: iso(NOW - 50 * MIN),
                alertedAt: null,
                recoveryAlertedAt: null,
              },
            ]),
          )
        : undefined;
    await render(<HealthSummary health={health({ state: 'ok' })} now={NOW} titles={titles} incidentsOpen />);
    const rows = allByTestId('incident');
    expect(rows.map((r) => r.dataset.state)).toEqual(['offline', 'frozen']);
    const short = (ms: number) => new Intl.DateTimeFormat('en', { dateStyle: 'short', timeStyle: 'short' }).format(ms);
    expect([...(rows[0]?.querySelectorAll('td') ?? [])].map((td) => td.textContent)).toEqual([
      'Offline',
      short(NOW - 10 * MIN),
      'Ongoing',
      `Sent ${short(NOW - 4 * MIN)}`,
    ]);
    expect(rows[1]?.querySelectorAll('td')[3]?.textContent).toBe('Not sent');
  });
});

function screen(over: Partial<Screen> = {}): Screen {
  return {
    id: 's1',
    name: 'Lobby',
    timeZone: 'Asia/Tokyo',
    assignment: { kind: 'none' },
    place: null,
    pairedAt: iso(NOW - 86_400_000),
    lastSeenAt: iso(NOW),
    online: true,
    nowPlaying: null,
    appVersion: null,
    screenSize: null,
    rotation: 0,
    openingHours: null,
    ...over,
  };
}

describe('a Screens card: one status', () => {
  // the heartbeat says online and names a page: the card's status is its health once that is read
  const reporting = screen({ nowPlaying: { fileId: 'f-menu', page: 1 } });
  const card = () => byTestId('screen-s1');

  it('a screen with nothing assigned says so (not "ok"), what to do, and opens the way to assign', async () => {
    const nothing = health({
      state: 'ok',
      shows: { kind: 'blank', shownAt: iso(NOW - MIN) },
      expected: { kind: 'none' },
    });
    await render(
      <ScreenCard screen={{ ...reporting, assignment: { kind: 'none' } }} now={NOW} titles={titles} health={nothing} />,
    );
    expect(byTestId('health-state')?.dataset.note).toBe('unassigned');
    expect(byTestId('health-state')?.textContent).toBe('Nothing assigned');
    expect(byTestId('health-reason')?.textContent).toContain('Choose a playlist or a file');
    const change = [...(card()?.querySelectorAll('details') ?? [])].find(
      (d) => d.querySelector('summary')?.textContent === 'Change what it plays',
    );
    expect(change?.open).toBe(true);
  });

  it('a closed screen says closed (not online) and has no now-playing line', async () => {
    // until its health is read (or from an older server): the heartbeat's online and the reported page
    await render(<ScreenCard screen={reporting} now={NOW} titles={titles} />);
    expect(byTestId('health-state')).toBeNull();
    expect(byTestId('screen-status')?.textContent).toBe('Online');
    expect(byTestId('screen-now-playing')?.textContent).toBe('Menu, page 2');
    const closed = health({
      state: 'closed',
      shows: { kind: 'blank', shownAt: iso(NOW - MIN) },
      expected: { kind: 'none' },
    });
    await render(<ScreenCard screen={reporting} now={NOW} titles={titles} health={closed} />);
    const states = allByTestId('health-state', card() ?? document);
    expect(states.map((s) => [s.dataset.state, s.textContent])).toEqual([['closed', 'Closed']]);
    expect(card()?.querySelector('.ps-screen__head [data-testid="health-state"]')).toBe(states[0]);
    expect(byTestId('health-reason')?.textContent).toBe('Outside its opening hours: the screen is black');
    expect(byTestId('screen-status')).toBeNull();
    expect(byTestId('screen-now-playing')).toBeNull();
    expect(byTestId('health-shows')).toBeNull();
    expect(card()?.textContent).not.toContain('Online');
    expect(card()?.textContent).not.toContain('Now playing');
    // what it plays once open (not "now"), last seen and the screen size stay
    expect(byTestId('screen-schedule-now')?.textContent).toBe('Nothing');
    expect(byTestId('screen-last-seen')?.textContent).not.toBe('');
    expect([...(card()?.querySelectorAll('dt') ?? [])].map((dt) => dt.textContent)).toEqual([
      'Plays when open',
      'Last seen',
      'Screen size',
    ]);
  });

  it('a screen showing what it should says so, and what it shows in words by title', async () => {
    const ok = health({ state: 'ok', shows: page('f-menu', 2, NOW - 20_000) });
    await render(<ScreenCard screen={reporting} now={NOW} titles={titles} health={ok} />);
    expect(allByTestId('health-state').map((s) => s.textContent)).toEqual(['OK']);
    expect(byTestId('health-reason')?.textContent).toBe('Shows what it should');
    expect(byTestId('health-shows')?.textContent).toBe('Now playing: “Menu”, page 2');
    expect(byTestId('screen-now-playing')).toBeNull();
    expect(card()?.textContent).not.toContain('f-menu');
  });

  it('says what it should show now when its groups or a takeover give something else than its own plan', async () => {
    // its own assignment plays nothing; its group gives the playlist Lunch
    const given = health({ state: 'ok', expected: { kind: 'playlist', playlistId: 'pl-lunch' } });
    await render(<ScreenCard screen={reporting} now={NOW} titles={titles} health={given} />);
    expect(byTestId('screen-schedule-now')?.textContent).toBe('Nothing');
    expect(byTestId('screen-instead-now')?.textContent).toBe('the playlist “Lunch”');
    expect(byTestId('screen-instead-now')?.previousElementSibling?.textContent).toBe(
      'Now instead (a group or a takeover)',
    );
    // a takeover's message, in the reader's words
    await act(async () => {
      await i18n().changeLanguage('ja');
    });
    const takeover = health({ state: 'ok', expected: { kind: 'message', takeoverId: 't1' } });
    await render(<ScreenCard screen={reporting} now={NOW} titles={titles} health={takeover} />);
    expect(byTestId('screen-instead-now')?.textContent).toBe('緊急表示のメッセージ');
    // its own plan is what it should show: no second line
    const own = screen({ assignment: { kind: 'playlist', playlistId: 'pl-lunch' } });
    await render(<ScreenCard screen={own} now={NOW} titles={titles} health={given} />);
    expect(byTestId('screen-schedule-now')?.textContent).toBe('Lunch');
    expect(byTestId('screen-instead-now')).toBeNull();
  });
});

describe('rotation and opening hours of a screen', () => {
  it('adds and removes spans, picks a rotation, and saves them (no spans = none of its own)', async () => {
    net.serve = ({ method, path, body }) =>
      method === 'PUT' && path === '/api/screens/s1' ? json({ ...screen(), ...(body as object) }) : undefined;
    await render(<ScreenSettings screen={screen()} />);
    expect(byTestId('hours-none')?.textContent).toBe('No hours of its own: its group’s, else always open');
    await click(byTestId('rotation-picker')?.querySelector('input[value="270"]'));
    await click(button('Add opening hours'));
    await click(button('Add opening hours'));
    expect(allByTestId('opening-span')).toHaveLength(2);
    // the second: Saturday 22:00 to 02:00 the next day
    const second = allByTestId('opening-span')[1] as HTMLElement;
    for (const box of second.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')) {
      if (box.checked) await click(box);
    }
    await click(second.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')[6]);
    await type(second.querySelector<HTMLInputElement>('#hours-s1-opens-1'), '22:00');
    await type(second.querySelector<HTMLInputElement>('#hours-s1-closes-1'), '02:00');
    expect(second.textContent).toContain('closes the next day');
    await click(button('Save'));
    expect(net.calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([
      {
        rotation: 270,
        openingHours: [
          { days: [1, 2, 3, 4, 5], start: '09:00', end: '18:00' },
          { days: [6], start: '22:00', end: '02:00' },
        ],
      },
    ]);
    // removing both spans saves "none of its own"
    await click(button('Remove', allByTestId('opening-span')[0]));
    await click(button('Remove', allByTestId('opening-span')[0]));
    expect(allByTestId('opening-span')).toHaveLength(0);
    await click(button('Save'));
    expect(net.calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ rotation: 270, openingHours: null });
  });

  it('shows the server’s refusal on the span it is about, in the reader’s language', async () => {
    net.serve = ({ method }) =>
      method === 'PUT'
        ? json(
            {
              code: 'VALIDATION',
              message: '入力内容を確認してください',
              issues: [{ path: 'openingHours.1', key: 'validation.openingSpanEmpty', message: '…' }],
            },
            400,
          )
        : undefined;
    await i18n().changeLanguage('fr');
    await render(
      <ScreenSettings
        screen={screen({
          openingHours: [
            { days: [1], start: '09:00', end: '18:00' },
            { days: [2], start: '09:00', end: '17:00' },
          ],
        })}
      />,
    );
    await type(document.querySelector<HTMLInputElement>('#hours-s1-closes-1'), '09:00');
    await click(button('Enregistrer'));
    const [first, second] = allByTestId('opening-span');
    expect(first?.querySelector('[role="alert"]')).toBeNull();
    expect(second?.querySelector('[role="alert"]')?.textContent).toBe(
      i18n().t('validation.openingSpanEmpty', { lng: 'fr' }),
    );
    expect(i18n().t('validation.openingSpanEmpty', { lng: 'fr' })).not.toBe('validation.openingSpanEmpty');
  });
});

describe('a group’s opening hours and alert threshold', () => {
  const group = ScreenGroupList.parse([
    {
      id: 'g1',
      name: 'Shops',
      screenIds: ['s1'],
      assignment: { kind: 'none' },
      rank: 0,
      createdAt: iso(NOW),
      openingHours: [{ days: [1, 2, 3, 4, 5], start: '08:00', end: '20:00' }],
      alertAfterMinutes: 5,
    },
  ]);

  it('saves them with the group, and shows a refused threshold on its field', async () => {
    let refuse = false;
    net.serve = ({ method, path }) => {
      if (method !== 'PUT' || path !== '/api/screens/groups/g1') return undefined;
      return refuse
        ? json(
            {
              code: 'VALIDATION',
              message: '…',
              issues: [{ path: 'alertAfterMinutes', key: 'validation.alertAfterInvalid', message: '…' }],
            },
            400,
          )
        : json(group[0]);
    };
    await render(<GroupsSection groups={group} screens={[screen()]} />);
    const alert = document.querySelector<HTMLInputElement>('#fleet-group-g1-alert');
    expect(alert?.value).toBe('5');
    expect(allByTestId('opening-span')).toHaveLength(1);
    await type(alert, '1');
    await click(button('Remove', allByTestId('opening-span')[0]));
    await click(button('Save'));
    const put = net.calls.filter((c) => c.method === 'PUT');
    expect(put.map((c) => c.body)).toEqual([expect.objectContaining({ openingHours: null, alertAfterMinutes: 1 })]);
    refuse = true;
    await type(alert, '2000');
    await click(button('Save'));
    expect(alert?.closest('.pc-field')?.querySelector('[role="alert"]')?.textContent).toBe(
      'Enter a whole number of minutes from 1 to 1440',
    );
  });
});

describe('the agenda', () => {
  it('shows the screen as it hangs beside its entries', async () => {
    net.serve = ({ path }) =>
      path === '/api/screens/s1/agenda'
        ? json(
            ScreenAgenda.parse({
              screenId: 's1',
              timeZone: 'Asia/Tokyo',
              from: iso(NOW),
              to: iso(NOW + 7 * 86_400_000),
              entries: [
                {
                  from: iso(NOW),
                  to: iso(NOW + 7 * 86_400_000),
                  playing: { kind: 'none' },
                  because: { rule: 'none' },
                  stopped: [],
                },
              ],
              licenceEnds: [],
            }),
          )
        : undefined;
    await render(<AgendaSection groups={[]} screens={[screen({ rotation: 270 })]} />);
    const select = document.querySelector<HTMLSelectElement>('#fleet-agenda-of');
    await act(async () => {
      if (select) select.value = 'screen:s1';
      select?.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await settle();
    const hangs = byTestId('agenda-orientation');
    expect(hangs?.dataset.rotation).toBe('270');
    expect(hangs?.textContent).toBe('Hangs: Portrait, turned left (270°)');
    expect(hangs?.querySelector('svg')?.getAttribute('data-rotation')).toBe('270');
    expect(byTestId('fleet-agenda')).not.toBeNull();
  });
});

describe('the fleet health view', () => {
  const counts: FleetHealthCounts = {
    total: 5,
    online: 4,
    offline: 1,
    closed: 1,
    broken: 1,
    frozen: 0,
    wrong: 1,
    ok: 1,
  };
  let screens: ScreenHealth[] = [];
  const fleet = () =>
    ['Atrium', 'Bar', 'Cafe', 'Dock', 'Entrance'].map((name, i) =>
      health({
        screenId: `s${i + 1}`,
        name,
        state: (['ok', 'offline', 'broken', 'wrong', 'closed'] as const)[i] ?? 'ok',
        lastSeenAt: i === 1 ? null : iso(NOW - 5000),
      }),
    );
  beforeEach(() => {
    screens = fleet();
    net.serve = ({ path, search }) => {
      if (path === '/api/screens/groups') return json([]);
      if (path !== '/api/screens/health') return undefined;
      const state = search.get('state');
      const list = screens.filter((s) =>
        !state ? true : state === 'online' ? s.state !== 'offline' : s.state === state,
      );
      // pages of two, the cursor is the index of the next one
      const from = Number(search.get('cursor') ?? 0);
      const next = from + 2 < list.length ? String(from + 2) : null;
      return json(FleetHealth.parse({ counts, items: list.slice(from, from + 2), nextCursor: next }));
    };
  });
  const names = () =>
    allByTestId('health-list').flatMap((l) => [...l.querySelectorAll('strong')].map((s) => s.textContent));

  it('counts per state as filters, the filtered list paged by "more"', async () => {
    await render(<FleetHealthView />, '/screens/health');
    expect(byTestId('health-count-all')?.textContent).toBe('5All');
    expect(byTestId('health-count-offline')?.textContent).toBe('1Offline');
    expect(byTestId('health-count-online')?.textContent).toBe('4Online');
    expect(byTestId('health-count-all')?.getAttribute('aria-pressed')).toBe('true');
    expect(names()).toEqual(['Atrium', 'Bar']);
    expect(byTestId('health-shown')?.textContent).toBe('2 of 5 screens');
    await click(byTestId('health-more'));
    expect(names()).toEqual(['Atrium', 'Bar', 'Cafe', 'Dock']);
    await click(byTestId('health-more'));
    expect(names()).toEqual(['Atrium', 'Bar', 'Cafe', 'Dock', 'Entrance']);
    expect(byTestId('health-more')).toBeNull();
    const pages = net.calls.filter((c) => c.path === '/api/screens/health').map((c) => c.search.get('cursor'));
    expect(pages).toEqual([null, '2', '4']);

    await click(byTestId('health-count-broken'));
    expect(where()).toBe('/screens/health?state=broken');
    expect(byTestId('health-count-broken')?.getAttribute('aria-pressed')).toBe('true');
    expect(names()).toEqual(['Cafe']);
    expect(byTestId('health-shown')?.textContent).toBe('1 of 1 screen');
    expect(net.calls.at(-1)?.search.get('state')).toBe('broken');
  });

  it('?state= preselects a filter, ?screen= opens that screen with its incident log', async () => {
    const inner = net.serve;
    net.serve = (call) =>
      call.path === '/api/screens/s4/incidents' ? json(ScreenIncidentList.parse([])) : inner(call);
    await render(<FleetHealthView />, '/screens/health?state=wrong&screen=s4');
    expect(net.calls.find((c) => c.path === '/api/screens/health')?.search.get('state')).toBe('wrong');
    expect(byTestId('health-count-wrong')?.getAttribute('aria-pressed')).toBe('true');
    expect(names()).toEqual(['Dock']);
    const row = byTestId('health-row-s4');
    expect(row?.querySelector('button')?.getAttribute('aria-expanded')).toBe('true');
    expect(byTestId('screen-health', row ?? document)).not.toBeNull();
    expect(net.calls.some((c) => c.path === '/api/screens/s4/incidents')).toBe(true);
    expect(row?.textContent).toContain('No incidents yet');
  });

  it('is live: a status report on the stream reads the health again, and the state moves without a reload', async () => {
    const sources: FakeEventSource[] = [];
    class FakeEventSource {
      readonly listeners = new Map<string, Array<() => void>>();
      constructor(readonly url: string) {
        sources.push(this);
      }
      addEventListener(type: string, listener: () => void) {
        this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
      }
      close() {}
      emit(type: string) {
        for (const l of this.listeners.get(type) ?? []) l();
      }
    }
    vi.stubGlobal('EventSource', FakeEventSource);
    await render(<FleetHealthView />, '/screens/health');
    expect(sources.map((s) => new URL(s.url, 'http://app.test').searchParams.get('screens'))).toEqual(['mine']);
    expect(byTestId('health-row-s1')?.dataset.state).toBe('ok');
    const reads = () => net.calls.filter((c) => c.path === '/api/screens/health').length;
    const before = reads();
    // the screen stops: the next read says offline
    screens[0] = { ...(screens[0] as ScreenHealth), state: 'offline' };
    await act(async () => sources[0]?.emit('screens.screen.status'));
    await vi.waitFor(() => expect(reads()).toBeGreaterThan(before), { timeout: 5000 });
    await settle();
    expect(byTestId('health-row-s1')?.dataset.state).toBe('offline');
  });

  it('the name search and the group go to the server', async () => {
    await render(<FleetHealthView />, '/screens/health?group=g1');
    await type(document.querySelector<HTMLInputElement>('#health-search'), 'dock');
    // the search waits for typing to pause: wait for the read it makes
    await vi.waitFor(() => expect(net.calls.some((c) => c.search.get('q') === 'dock')).toBe(true));
    const read = net.calls.filter((c) => c.path === '/api/screens/health').at(-1);
    expect(read?.search.get('groupId')).toBe('g1');
    expect(where()).toBe('/screens/health?group=g1&q=dock');
  });
});
