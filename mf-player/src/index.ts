// Async boundary: shared singletons (react, ...) are negotiated before any of them is imported.
import('./bootstrap');
