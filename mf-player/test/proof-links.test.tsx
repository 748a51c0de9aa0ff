// @vitest-environment jsdom
// Signed proof of play on the Screens page, in jsdom with the real catalogues: under the play report one download per
// file for the report's days (the owner's proof), under the sold report one per sold file (the seller's proof); none
// when a report is empty. Only the network is an in-test server.
import { describe, expect, it } from 'vitest';
import { PlayReportCard } from '../src/features/screens/components/play-report-card';
import { allByTestId, byTestId, json, net, render, settle, setupDom } from './dom-harness';

const { i18n } = setupDom();
const row = (day: string, fileId: string) => ({
  day,
  screenId: 's1',
  screenName: 'Lobby',
  fileId,
  plays: 2,
  seconds: 20,
});

describe('proof downloads', () => {
  it('offers one proof per file of the play report and of the sold report, for the chosen days', async () => {
    net.serve = (call) => {
      if (call.path === '/api/screens/plays')
        return json([row('2026-12-01', 'f-a'), row('2026-12-02', 'f-a'), row('2026-12-02', 'f-b')]);
      if (call.path === '/api/screens/plays/sold')
        return json([{ day: '2026-12-01', fileId: 'f-sold', plays: 3, seconds: 31.6 }]);
      if (call.path === '/api/screens/plays/refused') return json([]);
      return undefined;
    };
    await render(<PlayReportCard />);
    const from = (document.getElementById('plays-from') as HTMLInputElement).value;
    const to = (document.getElementById('plays-to') as HTMLInputElement).value;
    const owner = allByTestId('proof-download', byTestId('play-proof') ?? undefined);
    expect(owner.map((a) => a.getAttribute('href'))).toEqual([
      `/api/screens/plays/proof?fileId=f-a&from=${from}&to=${to}`,
      `/api/screens/plays/proof?fileId=f-b&from=${from}&to=${to}`,
    ]);
    expect(owner.every((a) => a.hasAttribute('download'))).toBe(true);
    const sold = allByTestId('proof-download', byTestId('sold-play-proof') ?? undefined);
    expect(sold.map((a) => a.getAttribute('href'))).toEqual([
      `/api/screens/plays/sold/proof?fileId=f-sold&from=${from}&to=${to}`,
    ]);
    expect(byTestId('play-proof')?.textContent).toContain('npx pagecast-verify proof.json');
    // the sold report shows plays and the screen time credited
    expect(byTestId('sold-play-count')?.textContent).toBe('3');
    expect(byTestId('sold-play-seconds')?.textContent).toBe('32');
  });

  it('says it in Japanese, and offers nothing for empty reports', async () => {
    await i18n().changeLanguage('ja');
    net.serve = (call) => (call.path.startsWith('/api/screens/plays') ? json([]) : undefined);
    await render(<PlayReportCard />);
    expect(byTestId('play-proof')).toBeNull();
    expect(byTestId('sold-play-proof')).toBeNull();
    net.serve = (call) =>
      call.path === '/api/screens/plays'
        ? json([row('2026-12-01', 'f-a')])
        : call.path.startsWith('/api/screens/plays')
          ? json([])
          : undefined;
    await render(<PlayReportCard key="again" />);
    expect(byTestId('play-proof')?.textContent).toContain('署名付き再生証明');
  });

  it('names a file by its title once the member’s files are read, and never calls it gone before', async () => {
    let filesRead: (r: Response) => void = () => {};
    const files = new Promise<Response>((resolve) => {
      filesRead = resolve;
    });
    net.serve = (call) => {
      if (call.path === '/api/files/accessible') return files as unknown as Response;
      if (call.path === '/api/screens/plays') return json([row('2026-12-01', 'f-a')]);
      if (call.path.startsWith('/api/screens/plays')) return json([]);
      return undefined;
    };
    await render(<PlayReportCard />);
    const titles = () => allByTestId('play-file').map((e) => e.textContent);
    expect(titles()).toEqual(['']);
    filesRead(json([{ id: 'f-a', title: 'Lunch menu', kind: 'pdf' }]));
    await settle();
    expect(titles()).toEqual(['Lunch menu']);
  });
});
