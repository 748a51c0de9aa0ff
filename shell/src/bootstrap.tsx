import '@pagecast/ui/styles.css';
import { initI18n } from '@pagecast/i18n';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { startFederation } from './federation/remotes';

// Remotes are registered from /remotes.json in parallel with the first render; a remote route waits for it.
startFederation();
void initI18n().then(() => {
  const root = document.getElementById('root');
  if (root) createRoot(root).render(<App />);
});
