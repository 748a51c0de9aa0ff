// What mf_player exposes to the shell ('./routes'): its route components by name.
import type { ComponentType } from 'react';
import { DisplayPage } from '../features/display/components/display-page';
import { PlaylistsPage } from '../features/playlists/components/playlists-page';
import { ScreensPage } from '../features/screens/components/screens-page';
import { SignagePage } from '../features/signage/components/signage-page';

export default { SignagePage, PlaylistsPage, ScreensPage, DisplayPage } satisfies Record<string, ComponentType>;
