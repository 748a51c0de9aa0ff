import { PLAYER_PAGE } from '@pagecast/contracts';
import { preloadCatalogue } from '@pagecast/i18n/catalogues';
import { startEarlyRequests } from './app/early-requests';
import { preloadPage } from './app/pages';
import { loadRemoteRoutes, startFederation } from './federation/remotes';

// What the first screen will wait for besides the framework starts downloading now, beside it: the page's first
// reads, the visitor's catalogue and the page's own chunk (the page lists the framework's chunks as <link
// rel="preload">). Each in a task of its own, right after this one: the evaluation of this entry (the federation
// runtime and its start) is a long task already, and these calls (three fetches; the chunk loader's first use) made
// it about half as long again. A task counts as blocking past 50 ms (Lighthouse's TBT, 4x slower CPU on its mobile
// run: the player's main.js task was 135-249 ms).
setTimeout(() => startEarlyRequests(), 0);
setTimeout(() => {
  preloadCatalogue();
  preloadPage(window.location.pathname);
}, 0);
// The rest in a task of its own: the browser may paint and answer input between the evaluation of this entry (the
// federation runtime, most of its size) and the runtime's start, instead of one long task.
setTimeout(() => {
  // A screen's player is a remote: its manifest, entry and chunks need nothing of the shell's own start, so they
  // begin now instead of once the router has rendered its route.
  if (PLAYER_PAGE.test(window.location.pathname)) {
    startFederation();
    loadRemoteRoutes('mf_player').catch(() => {}); // the route loads it again and shows the fallback
  }
  // Async boundary: shared singletons (react, ...) are negotiated before any of them is imported.
  import('./bootstrap');
}, 0);
