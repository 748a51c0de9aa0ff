// Standalone page of this remote (`npm -w mf-marketplace run dev`), with the providers the shell would give it.
import '@pagecast/ui/styles.css';
import { mountStandalone } from '@pagecast/ui/standalone';
import routes from './routes/index';

mountStandalone({ home: '/marketplace', routes: [{ path: '/marketplace', element: <routes.MarketplacePage /> }] });
