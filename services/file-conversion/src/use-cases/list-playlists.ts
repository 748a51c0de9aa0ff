import type { Playlist } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { toPlaylist } from './present';

/** The member's playlists, newest first, with their item counts. */
export async function listPlaylists(ctx: ServiceContext, userId: string): Promise<Playlist[]> {
  return (await ctx.data.playlists.listByOwner(userId)).map(toPlaylist);
}
