import { preloadCatalogue } from '@pagecast/i18n/catalogues';
import { preloadPage } from './app/pages';

// What the first screen will wait for besides the framework starts downloading now, beside it: the visitor's
// catalogue and the page's own chunk (the page lists the framework's chunks as <link rel="preload">).
preloadCatalogue();
preloadPage(window.location.pathname);

// Async boundary: shared singletons (react, ...) are negotiated before any of them is imported.
import('./bootstrap');
