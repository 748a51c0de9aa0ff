// Shared with the Screens page (titles, file picker): kept in src/lib.
export { accessibleFilesKey, accessibleFilesQuery } from '../../../lib/accessible-files';
