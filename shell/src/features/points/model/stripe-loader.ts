import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';

const STRIPE_ORIGIN = 'https://js.stripe.com';
const loads = new Map<string, Promise<void>>();

/**
 * Loads Stripe.js from the configured URL (the real one in production, localstripe's fake one locally), then hands
 * the publishable key to @stripe/stripe-js, which finds window.Stripe and does not inject its own script.
 * Appended to <body> so that it is the document's last script while it runs: localstripe's script reads its own
 * origin from the last script element.
 * A stand-in (localstripe) is not Stripe.js of any version: its client is built directly, without the version check of
 * @stripe/stripe-js, which warned in every test and local run. The real one (default: the release this
 * @stripe/stripe-js expects, `/endive/stripe.js`) goes through loadStripe.
 */
export function loadStripeFrom(scriptUrl: string, publishableKey: string): Promise<Stripe | null> {
  let load = loads.get(scriptUrl);
  if (!load) {
    load = new Promise<void>((resolve, reject) => {
      if ((window as { Stripe?: unknown }).Stripe) return resolve();
      const script = document.createElement('script');
      script.src = scriptUrl;
      script.async = true;
      script.addEventListener('load', () => resolve());
      script.addEventListener('error', () => {
        loads.delete(scriptUrl);
        script.remove();
        reject(new Error(`Stripe.js could not be loaded from ${scriptUrl}`));
      });
      document.body.appendChild(script);
    });
    loads.set(scriptUrl, load);
  }
  const real = new URL(scriptUrl, window.location.href).origin === STRIPE_ORIGIN;
  return load.then(() => {
    if (real) return loadStripe(publishableKey);
    const standIn = (window as { Stripe?: (key: string) => Stripe }).Stripe;
    return standIn ? standIn(publishableKey) : null;
  });
}
