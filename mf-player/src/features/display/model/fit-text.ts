// A takeover's message fills the screen: the largest scale of its type at which it still fits (a short message
// grows, a long one shrinks), found by halving the interval. Pure search; the hook measures in the page.
import { type RefObject, useLayoutEffect } from 'react';

export const FIT_MIN = 0.5;
export const FIT_MAX = 3;

/** The largest scale in [min, max] for which `fits` holds (min when none does), to within 1/100. */
export function largestFitting(fits: (scale: number) => boolean, min = FIT_MIN, max = FIT_MAX): number {
  if (fits(max)) return max;
  let lo = min;
  let hi = max;
  while (hi - lo > 0.01) {
    const mid = (lo + hi) / 2;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Sets `--pc-fit` on the element (its CSS multiplies its font sizes by it) to the largest scale at which it fits in
 * its parent's content box, again whenever the parent changes size (a window resized, a screen turned).
 */
export function useFitText(ref: RefObject<HTMLElement | null>, key: string) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for the text measured
  useLayoutEffect(() => {
    const el = ref.current;
    const box = el?.parentElement;
    if (!el || !box || typeof ResizeObserver === 'undefined') return;
    const fit = () => {
      const style = getComputedStyle(box);
      const height = box.clientHeight - Number.parseFloat(style.paddingTop) - Number.parseFloat(style.paddingBottom);
      const width = box.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      const scale = largestFitting((s) => {
        el.style.setProperty('--pc-fit', String(s));
        // nothing spills out of it (its border included) and it stays within the stage
        return (
          el.scrollHeight <= el.clientHeight &&
          el.scrollWidth <= el.clientWidth &&
          el.offsetHeight <= height &&
          el.offsetWidth <= width
        );
      });
      el.style.setProperty('--pc-fit', String(scale));
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(box);
    return () => observer.disconnect();
  }, [ref, key]);
}
