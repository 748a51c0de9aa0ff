import { useEffect } from 'react';
import { precacheApp, registerPlayerServiceWorker } from '../sw/register';

/** The player's service worker, and the app's own files in its cache: a signage page or a display starts offline. */
export function useOfflineApp(): void {
  useEffect(() => {
    void registerPlayerServiceWorker().then(() => precacheApp());
  }, []);
}
