// @vitest-environment jsdom
// The screens and fleet pages in another's workspace, by role: each control is offered only when the role has the
// action of the route it calls (the policy's table): a viewer reads everything and is offered no change; an emergency
// broadcaster starts a takeover from a template and ends one, nothing else (no typed message, no template editing);
// an editor says what screens play and changes groups, but neither pairs, unpairs nor sets the disaster alert rules.
// In Japanese and in French; the network is an in-test server.
import {
  defaultAlertRules,
  ScreenGroupList,
  type Takeover,
  type TakeoverTemplate,
  type WorkspaceRole,
} from '@pagecast/contracts';
import { setCurrentWorkspace } from '@pagecast/ui';
import { afterEach, describe, expect, it } from 'vitest';
import { FleetPage } from '../src/features/fleet/components/fleet-page';
import { ScreensPage } from '../src/features/screens/components/screens-page';
import { byTestId, click, json, net, pairedScreen, render, settle, setupDom, workspacesActingAs } from './dom-harness';

const dom = setupDom();
const iso = '2026-11-27T10:00:00.000Z';
const screens = [pairedScreen('s1', 'Accueil'), pairedScreen('s2', 'Hall')];
const groups = ScreenGroupList.parse([
  {
    id: 'g1',
    name: 'Entrée',
    screenIds: ['s1'],
    assignment: { kind: 'none' },
    rank: 0,
    createdAt: iso,
    openingHours: null,
    alertAfterMinutes: 5,
  },
  {
    id: 'g2',
    name: 'Cour',
    screenIds: ['s2'],
    assignment: { kind: 'none' },
    rank: 1,
    createdAt: iso,
    openingHours: null,
    alertAfterMinutes: 5,
  },
]);
const running: Takeover = {
  id: 'tk1',
  target: { kind: 'all' },
  content: { kind: 'message', title: 'Fermeture', body: 'Sortie par la cour' },
  startedAt: iso,
  endsAt: null,
  endedAt: null,
  screenIds: ['s1', 's2'],
  templateId: null,
};
const template: TakeoverTemplate = {
  id: 'tp1',
  name: 'Évacuation',
  content: { kind: 'message', title: 'Évacuez', body: 'Suivez les panneaux' },
  minutes: 30,
};

function serve(role: WorkspaceRole) {
  net.serve = ({ method, path }) => {
    if (path === '/api/workspaces') return workspacesActingAs(role, { own: 'Moi', shop: 'Boutique' });
    if (path === '/api/screens' && method === 'GET') return json(screens);
    if (path === '/api/screens/groups') return json(groups);
    if (path === '/api/screens/takeovers' && method === 'GET') return json([running]);
    if (path === '/api/screens/takeovers' && method === 'POST') return json({ ...running, id: 'tk2' }, 201);
    if (path === '/api/screens/takeovers/log') return json([]);
    if (path === '/api/screens/takeover-templates') return json([template]);
    if (path === '/api/screens/alert-rules') return json(defaultAlertRules);
    return undefined;
  };
}

/** every control that changes something on the two pages, by the action of the route it calls */
const CONTROLS = [
  'pair-form', // screens.manage
  'screen-unpair', // screens.manage
  'screen-change', // screens.assign
  'screen-settings-open', // screens.assign
  'fleet-takeover-end', // takeovers.end
  'fleet-template-start', // takeovers.start
  'fleet-takeover-start', // takeovers.compose
  'fleet-template-save', // takeover-templates.write
  'fleet-template-delete', // takeover-templates.write
  'fleet-group-create', // groups.write
  'fleet-group-order', // groups.write
  'fleet-group-edit', // groups.write
  'fleet-bulk', // screens.assign
  'alert-rules-save', // screens.manage
] as const;
const shown = () => CONTROLS.filter((id) => byTestId(id));
const buttons = () => [...document.querySelectorAll('button')].map((b) => b.textContent?.trim());

async function open(role: WorkspaceRole, page: 'screens' | 'fleet') {
  serve(role);
  setCurrentWorkspace('shop');
  await render(
    page === 'screens' ? <ScreensPage /> : <FleetPage />,
    page === 'screens' ? '/screens' : '/screens/fleet',
  );
  await settle(12);
}

afterEach(() => setCurrentWorkspace(undefined));

for (const lng of ['ja', 'fr'] as const) {
  describe(`the screens and fleet pages by role (${lng})`, () => {
    const t = (key: string, options?: Record<string, unknown>) => dom.i18n().t(key, { lng, ...options });

    it('the owner, in their own workspace, is offered every control', async () => {
      await dom.i18n().changeLanguage(lng);
      serve('viewer'); // their role in the other workspace: not the one they act in
      await render(<ScreensPage />, '/screens');
      await settle(12);
      const onScreens = shown();
      await render(<FleetPage />, '/screens/fleet');
      await settle(12);
      expect([...onScreens, ...shown()].sort()).toEqual([...CONTROLS].sort());
    });

    it('a viewer sees the screens, groups, templates, takeovers and rules, and is offered no change', async () => {
      await dom.i18n().changeLanguage(lng);
      await open('viewer', 'screens');
      expect(shown()).toEqual([]);
      expect(buttons()).toEqual([]);
      expect(byTestId('screen-s1')?.textContent).toContain('Accueil');
      expect(document.body.textContent).toContain(t('screens.title'));

      await open('viewer', 'fleet');
      expect(shown()).toEqual([]);
      expect(buttons()).toEqual([]);
      const page = document.body.textContent ?? '';
      for (const words of [
        'Entrée',
        'Cour',
        'Évacuation',
        'Fermeture',
        t('fleet.groups.title'),
        t('alerts.rules.title'),
      ])
        expect(page).toContain(words);
      // the rules are there to read, in fields nobody can change
      expect((byTestId('alert-rules-fields') as HTMLFieldSetElement | null)?.disabled).toBe(true);
      expect(byTestId('alert-rule-earthquake-enabled')).not.toBeNull();
      // what is left to pick is the week ahead's screen or group: a read
      const fields = [...document.querySelectorAll('input, select, textarea')].filter(
        (el) => !el.closest('[data-testid="alert-rules-fields"]'),
      );
      expect(fields.map((el) => el.id)).toEqual(['fleet-agenda-of']);
    });

    it('a broadcaster starts a takeover from a template and ends one, and is offered nothing else', async () => {
      await dom.i18n().changeLanguage(lng);
      await open('broadcaster', 'screens');
      expect(shown()).toEqual([]);
      expect(buttons()).toEqual([]);

      await open('broadcaster', 'fleet');
      expect(shown()).toEqual(['fleet-takeover-end', 'fleet-template-start']);
      expect(buttons()).toEqual([t('fleet.takeover.end'), t('fleet.templates.start', { name: 'Évacuation' })]);
      expect(byTestId('fleet-new-takeover')).toBeNull();

      await click(byTestId('fleet-template-start'));
      await click(byTestId('fleet-confirm'));
      const started = net.calls.filter((c) => c.method === 'POST' && c.path === '/api/screens/takeovers');
      expect(started.map((c) => c.body)).toEqual([{ target: { kind: 'all' }, templateId: 'tp1' }]);
    });

    it('an editor says what screens play and changes groups, and neither pairs, unpairs nor sets alert rules', async () => {
      await dom.i18n().changeLanguage(lng);
      await open('editor', 'screens');
      expect(shown()).toEqual(['screen-change', 'screen-settings-open']);
      expect(byTestId('pair-form')).toBeNull();
      expect(document.body.textContent).not.toContain(t('screens.revoke'));

      await open('editor', 'fleet');
      expect(shown()).toEqual([
        'fleet-template-save',
        'fleet-template-delete',
        'fleet-group-create',
        'fleet-group-order',
        'fleet-group-edit',
        'fleet-bulk',
      ]);
      // templates are content: kept, not started; the bulk change has no unpairing
      expect(byTestId('fleet-new-takeover')).not.toBeNull();
      const kinds = [...document.querySelectorAll<HTMLOptionElement>('#fleet-bulk-change option')].map((o) => o.value);
      expect(kinds).toEqual(['assign', 'add-to-group', 'remove-from-group', 'set-time-zone']);
      expect((byTestId('alert-rules-fields') as HTMLFieldSetElement | null)?.disabled).toBe(true);
    });
  });
}
