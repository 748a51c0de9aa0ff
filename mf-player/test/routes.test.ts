import { exposeMismatch } from '@pagecast/federation/shell-routes';
import { describe, expect, it } from 'vitest';
import routes from '../src/routes/index';

describe("mf_player './routes'", () => {
  it("exposes exactly the components the shell's routes ask mf_player for", () => {
    expect(exposeMismatch(routes, 'mf_player')).toEqual({ asked: 8, missing: [], extra: [], notComponents: [] });
  });
});
