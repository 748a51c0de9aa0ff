import { useEffect, useState } from 'react';

/**
 * The time now, once a second (the screens' local clocks tick, a screen that stopped reporting turns offline, how
 * long a page has shown or a state has lasted).
 */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
