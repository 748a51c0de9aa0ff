// Titles for the ids the screens service answers with (now playing, proof of play, sold plays, day parts), from
// what the member may read anyway: their files and bought ones (GET /api/files/accessible), their playlists and
// their running takeovers (a message's title).
// An id not there (a file deleted since, a licence ended) has no title: the page says so, never shows the id. Until
// the lists are read, every id's title is empty (the page says nothing yet).
import type { Takeover } from '@pagecast/contracts';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { playlistsQuery } from './playlists';
import { accessibleFilesQuery } from './accessible-files';
import { takeoversQuery } from './takeovers';

export interface Titles {
  file(id: string | null | undefined): string | null;
  playlist(id: string | null | undefined): string | null;
  /** a running takeover's message title (null: a file takeover, one ended since, or not read yet) */
  takeover(id: string | null | undefined): string | null;
  /** the file is a video (its kind from the accessible files; false when unknown) */
  isVideo?(id: string | null | undefined): boolean;
}

export function titlesOf(
  files: ReadonlyArray<{ id: string; title: string; kind?: string }>,
  playlists: ReadonlyArray<{ id: string; name: string }>,
  takeovers: ReadonlyArray<Pick<Takeover, 'id' | 'content'>> = [],
): Titles {
  const fileTitles = new Map(files.map((f) => [f.id, f.title]));
  const videos = new Set(files.filter((f) => f.kind === 'video').map((f) => f.id));
  const playlistNames = new Map(playlists.map((p) => [p.id, p.name]));
  return {
    file: (id) => (id ? (fileTitles.get(id) ?? null) : null),
    playlist: (id) => (id ? (playlistNames.get(id) ?? null) : null),
    isVideo: (id) => (id ? videos.has(id) : false),
    takeover: (id) => {
      const content = takeovers.find((x) => x.id === id)?.content;
      return content?.kind === 'message' ? content.title : null;
    },
  };
}

export function useTitles(): Titles {
  const files = useQuery(accessibleFilesQuery);
  const playlists = useQuery(playlistsQuery);
  const takeovers = useQuery(takeoversQuery);
  const filesPending = files.isPending;
  const playlistsPending = playlists.isPending;
  return useMemo(() => {
    const titles = titlesOf(files.data ?? [], playlists.data ?? [], takeovers.data ?? []);
    // not read yet: an empty title for now, never "no longer available" for a file that is there
    return {
      ...titles,
      file: filesPending ? (id) => (id ? '' : null) : titles.file,
      playlist: playlistsPending ? (id) => (id ? '' : null) : titles.playlist,
    };
  }, [files.data, playlists.data, takeovers.data, filesPending, playlistsPending]);
}
