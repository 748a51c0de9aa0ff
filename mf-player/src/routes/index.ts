// What mf_player exposes to the shell ('./routes'): its route components by name.
import { type ComponentType, lazy } from 'react';
import { SignagePage } from '../features/signage/components/signage-page';

// The signage page is in the expose's own chunks: a screen opening /signage/:id loads nothing else of the player
// before its first page. The other pages are chunks of their own, loaded when their route renders (the
// shell's RemoteRoute holds the Suspense boundary): they brought zod, the playlist editor and a QR code generator,
// about 170 KB of script, to every signage screen.
const PlaylistsPage = lazy(() =>
  import('../features/playlists/components/playlists-page').then((m) => ({ default: m.PlaylistsPage })),
);
const ScreensPage = lazy(() =>
  import('../features/screens/components/screens-page').then((m) => ({ default: m.ScreensPage })),
);
const FleetPage = lazy(() => import('../features/fleet/components/fleet-page').then((m) => ({ default: m.FleetPage })));
const FleetHealthPage = lazy(() =>
  import('../features/health/components/fleet-health-page').then((m) => ({ default: m.FleetHealthPage })),
);
const ProposalsPage = lazy(() =>
  import('../features/approvals/components/proposals-page').then((m) => ({ default: m.ProposalsPage })),
);
const ProposalPage = lazy(() =>
  import('../features/approvals/components/proposal-page').then((m) => ({ default: m.ProposalPage })),
);
const DisplayPage = lazy(() =>
  import('../features/display/components/display-page').then((m) => ({ default: m.DisplayPage })),
);

export default {
  SignagePage,
  PlaylistsPage,
  ScreensPage,
  FleetPage,
  FleetHealthPage,
  ProposalsPage,
  ProposalPage,
  DisplayPage,
} satisfies Record<string, ComponentType>;
