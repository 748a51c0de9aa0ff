import { exposeMismatch } from '@pagecast/federation/shell-routes';
import { describe, expect, it } from 'vitest';
import routes from '../src/routes/index';

describe("mf_files './routes'", () => {
  it("exposes exactly the components the shell's routes ask mf_files for", () => {
    expect(exposeMismatch(routes, 'mf_files')).toEqual({ asked: 1, missing: [], extra: [], notComponents: [] });
  });
});
