import '@pagecast/ui/styles.css';
import { initI18n } from '@pagecast/i18n';
import { createQueryClient } from '@pagecast/ui';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { seedEarlyRequests } from './app/early-seed';
import { seedSignedOut } from './app/session-hint';
import { startFederation } from './federation/remotes';

// Remotes are registered from /remotes.json in parallel with the first render; a remote route waits for it.
startFederation();
const queryClient = createQueryClient();
seedSignedOut(queryClient);
seedEarlyRequests(queryClient);
void initI18n().then((i18n) => {
  const root = document.getElementById('root');
  if (!root) return;
  const app = <App queryClient={queryClient} />;
  // A page the gateway sent prerendered (src/prerender) is hydrated when the shell starts in the language it was
  // rendered in; otherwise it is drawn anew (React replaces what the root held: the page's splash, or markup in
  // another language). Either in a transition: React renders in slices and yields to the browser between them,
  // instead of holding a phone's main thread for one long task.
  const prerendered = root.dataset.prerendered && root.dataset.prerendered === i18n.resolvedLanguage;
  startTransition(() => {
    if (prerendered) hydrateRoot(root, app);
    else createRoot(root).render(app);
  });
});
