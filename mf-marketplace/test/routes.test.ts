import { exposeMismatch } from '@pagecast/federation/shell-routes';
import { describe, expect, it } from 'vitest';
import routes from '../src/routes/index';

describe("mf_marketplace './routes'", () => {
  it("exposes exactly the components the shell's routes ask mf_marketplace for", () => {
    expect(exposeMismatch(routes, 'mf_marketplace')).toEqual({ asked: 1, missing: [], extra: [], notComponents: [] });
  });
});
