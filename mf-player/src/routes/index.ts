// What mf_player exposes to the shell ('./routes'): its route components by name.
import type { ComponentType } from 'react';
import { PlaylistsPage } from '../features/playlists/components/playlists-page';
import { SignagePage } from '../features/signage/components/signage-page';

export default { SignagePage, PlaylistsPage } satisfies Record<string, ComponentType>;
