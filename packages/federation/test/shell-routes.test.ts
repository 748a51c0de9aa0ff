import { describe, expect, it } from 'vitest';
import { exposeMismatch, routedComponents, shellRoutesSource } from '../src/shell-routes';

describe('routedComponents', () => {
  it("reads the components each remote is asked for from the shell's routes", () => {
    const source = `
      const a = <RemoteRoute remote="mf_files" component="FilesPage" />;
      <Route path="/x" element={<RemoteRoute remote="mf_player" component="ScreensPage" fallback={<X />} />} />
      <Route path="/y" element={<RemoteRoute remote="mf_player" component="DisplayPage" />} />
      <Route path="/z" element={<RemoteRoute remote="mf_player" component="ScreensPage" />} />`;
    expect(routedComponents(source, 'mf_player')).toEqual(['DisplayPage', 'ScreensPage']);
    expect(routedComponents(source, 'mf_files')).toEqual(['FilesPage']);
    expect(routedComponents(source, 'mf_marketplace')).toEqual([]);
  });

  it("finds the real shell's routes for every remote", () => {
    const source = shellRoutesSource(`${process.cwd()}/packages/federation/..`);
    expect(routedComponents(source, 'mf_files')).toContain('FilesPage');
    expect(routedComponents(source, 'mf_player')).toContain('SignagePage');
  });
});

describe('exposeMismatch', () => {
  const source = `<RemoteRoute remote="mf_x" component="APage" /> <RemoteRoute remote="mf_x" component="BPage" />`;
  it('names what is missing, extra, or not a component', () => {
    const lazyLike = { $$typeof: Symbol.for('react.lazy') };
    expect(exposeMismatch({ APage: () => null, BPage: lazyLike }, 'mf_x', source)).toEqual({
      asked: 2,
      missing: [],
      extra: [],
      notComponents: [],
    });
    expect(exposeMismatch({ APage: 'x', CPage: () => null }, 'mf_x', source)).toEqual({
      asked: 2,
      missing: ['BPage'],
      extra: ['CPage'],
      notComponents: ['APage'],
    });
  });
});
