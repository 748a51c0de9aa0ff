import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadStripeFrom } from '../src/features/points/model/stripe-loader';

afterEach(() => {
  delete (window as { Stripe?: unknown }).Stripe;
  for (const s of document.querySelectorAll('script')) s.remove();
});

describe('Stripe.js from the configured URL', () => {
  it('injects only the configured script, last in <body>, and builds the client from it with the publishable key', async () => {
    const url = 'http://127.0.0.1:12211/js.stripe.com/v3/';
    const instance = { elements: vi.fn() };
    const factory = vi.fn(() => instance);
    const loading = loadStripeFrom(url, 'pk_test_abc');

    const scripts = [...document.querySelectorAll('script')];
    expect(scripts.map((s) => s.src)).toEqual([url]);
    expect(document.body.lastElementChild).toBe(scripts[0]);

    (window as { Stripe?: unknown }).Stripe = factory;
    scripts[0]?.dispatchEvent(new Event('load'));
    await expect(loading).resolves.toBe(instance);
    expect(factory).toHaveBeenCalledWith('pk_test_abc');
    // @stripe/stripe-js found window.Stripe and added no script of its own (js.stripe.com)
    expect([...document.querySelectorAll('script')].map((s) => s.src)).toEqual([url]);
  });

  it('builds a stand-in client (localstripe) without the version warning meant for Stripe.js', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const url = 'http://127.0.0.1:12211/js.stripe.com/v3/?standin';
      const instance = { elements: vi.fn() };
      const loading = loadStripeFrom(url, 'pk_test_localstripe');
      (window as { Stripe?: unknown }).Stripe = vi.fn(() => instance);
      document.querySelector('script')?.dispatchEvent(new Event('load'));
      await expect(loading).resolves.toBe(instance);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('rejects when the script cannot load, and tries again on the next call', async () => {
    const url = 'http://127.0.0.1:1/missing.js';
    const first = loadStripeFrom(url, 'pk_test_abc');
    document.querySelector('script')?.dispatchEvent(new Event('error'));
    await expect(first).rejects.toThrow(/could not be loaded/);
    expect(document.querySelectorAll('script')).toHaveLength(0);
    void loadStripeFrom(url, 'pk_test_abc').catch(() => {});
    expect(document.querySelectorAll('script')).toHaveLength(1);
  });
});
