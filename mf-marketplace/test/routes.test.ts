import { describe, expect, it } from 'vitest';
import routes from '../src/routes/index';

describe("mf_marketplace './routes'", () => {
  it('exposes the component the shell routes /marketplace to', () => {
    expect(Object.keys(routes)).toEqual(['MarketplacePage']);
    expect(typeof routes.MarketplacePage).toBe('function');
  });
});
