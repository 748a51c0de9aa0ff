// Standalone page of this remote (`npm -w mf-player run dev`), with the providers the shell would give it.
import '@pagecast/ui/styles.css';
import { mountStandalone } from '@pagecast/ui/standalone';
import routes from './routes/index';

mountStandalone({
  home: '/playbook',
  routes: [
    { path: '/playbook', element: <routes.PlaylistsPage /> },
    { path: '/playback', element: <routes.PlaylistsPage /> },
    { path: '/signage/:fileId', element: <routes.SignagePage /> },
  ],
});
