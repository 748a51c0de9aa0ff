import { describe, expect, it } from 'vitest';
import routes from '../src/routes/index';

describe("mf_files './routes'", () => {
  it('exposes the component the shell routes /files to', () => {
    expect(Object.keys(routes)).toEqual(['FilesPage']);
    expect(typeof routes.FilesPage).toBe('function');
  });
});
