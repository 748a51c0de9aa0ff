// Standalone page of this remote (`npm -w mf-files run dev`), with the providers the shell would give it.
import '@pagecast/ui/styles.css';
import { mountStandalone } from '@pagecast/ui/standalone';
import routes from './routes/index';

mountStandalone({ home: '/files', routes: [{ path: '/files', element: <routes.FilesPage /> }] });
