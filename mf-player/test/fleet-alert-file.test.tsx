// @vitest-environment jsdom
// A disaster alert rule's file on the fleet page: picked from the member's own and bought files (the takeover form's
// list) and saved with the rule; a file deleted since is named as such, and the page says the alert shows the words.
import { defaultAlertRules } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import { AlertRulesSection } from '../src/features/fleet/components/alert-rules-section';
import { byTestId, choose, click, json, net, render, settle, setupDom } from './dom-harness';

setupDom();

const file = (id: string, title: string) => ({ id, title, access: 'owner', licenceExpiresAt: null });

describe('an alert rule’s file', () => {
  it('says a deleted file falls back to the words, and saves another file picked from the list', async () => {
    let saved: unknown = null;
    const rules = { ...defaultAlertRules, earthquake: { ...defaultAlertRules.earthquake, fileId: 'f-gone' } };
    net.serve = ({ method, path, body }) => {
      if (path === '/api/screens/alert-rules' && method === 'GET') return json(rules);
      if (path === '/api/screens/alert-rules' && method === 'PUT') {
        saved = body;
        return json(body);
      }
      if (path === '/api/files/accessible') return json([file('f-map', 'Evacuation map')]);
      return undefined;
    };
    await render(<AlertRulesSection />);
    await settle(12);
    expect(byTestId('alert-earthquake-file-gone')?.textContent).toContain('shows the words instead');
    // the tsunami rule shows its words: no file picker
    expect(document.querySelector('#alert-tsunami-file')).toBeNull();
    const picker = document.querySelector<HTMLSelectElement>('#alert-earthquake-file');
    expect([...(picker?.options ?? [])].map((o) => o.textContent)).toEqual([
      'Choose a file',
      '(deleted file)',
      'Evacuation map',
    ]);
    await choose(picker, 'f-map');
    expect(byTestId('alert-earthquake-file-gone')).toBeNull();
    await click(byTestId('alert-rules-save'));
    await settle(12);
    expect(saved).toMatchObject({ earthquake: { fileId: 'f-map' }, tsunami: { fileId: null } });
  });
});
