// What mf_files exposes to the shell ('./routes'): its route components by name.
import type { ComponentType } from 'react';
import { FilesPage } from '../features/library/components/files-page';

export default { FilesPage } satisfies Record<string, ComponentType>;
