import { useWorkspaceCan } from '@pagecast/ui';

/** An action of the policy (@pagecast/policy), as @pagecast/ui's useWorkspaceCan takes it. */
export type Action = Parameters<typeof useWorkspaceCan>[0];

/**
 * Whether the role in the workspace the page acts in allows `action` (the action of the route a control calls, in
 * packages/contracts' route table): pages leave out the controls it lacks, the server refuses them anyway. Chosen
 * once, as the playlists tab and the files page do: a host whose @pagecast/ui predates workspaces acts in the
 * person's own workspace, where they may do everything.
 */
export const useMay: (action: Action) => boolean = typeof useWorkspaceCan === 'function' ? useWorkspaceCan : () => true;
