// Titles for the ids the screens service answers with (now playing, proof of play, sold plays, day parts), from
// what the member may read anyway: their files and bought ones (GET /api/files/accessible) and their playlists.
// An id not there (a file deleted since, a licence ended) has no title: the page says so, never shows the id.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { playlistsQuery } from './playlists';
import { accessibleFilesQuery } from './accessible-files';

export interface Titles {
  file(id: string | null | undefined): string | null;
  playlist(id: string | null | undefined): string | null;
}

export function titlesOf(
  files: ReadonlyArray<{ id: string; title: string }>,
  playlists: ReadonlyArray<{ id: string; name: string }>,
): Titles {
  const fileTitles = new Map(files.map((f) => [f.id, f.title]));
  const playlistNames = new Map(playlists.map((p) => [p.id, p.name]));
  return {
    file: (id) => (id ? (fileTitles.get(id) ?? null) : null),
    playlist: (id) => (id ? (playlistNames.get(id) ?? null) : null),
  };
}

export function useTitles(): Titles {
  const files = useQuery(accessibleFilesQuery);
  const playlists = useQuery(playlistsQuery);
  return useMemo(() => titlesOf(files.data ?? [], playlists.data ?? []), [files.data, playlists.data]);
}
