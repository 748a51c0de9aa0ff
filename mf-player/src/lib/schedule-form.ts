import type { DayPart, ScreenAssignment } from '@pagecast/contracts';

/** The assignment editor's state: one kind at a time, the others kept while the member switches. */
export interface AssignmentDraft {
  kind: ScreenAssignment['kind'];
  playlistId: string;
  fileId: string;
  parts: DayPart[];
  defaultPlaylistId: string;
}

export function draftOf(a: ScreenAssignment): AssignmentDraft {
  return {
    kind: a.kind,
    playlistId: a.kind === 'playlist' ? a.playlistId : '',
    fileId: a.kind === 'file' ? a.fileId : '',
    parts: a.kind === 'schedule' ? a.schedule.parts : [],
    defaultPlaylistId: a.kind === 'schedule' ? (a.schedule.defaultPlaylistId ?? '') : '',
  };
}

export function assignmentOf(d: AssignmentDraft): ScreenAssignment {
  switch (d.kind) {
    case 'playlist':
      return { kind: 'playlist', playlistId: d.playlistId };
    case 'file':
      return { kind: 'file', fileId: d.fileId };
    case 'schedule':
      return { kind: 'schedule', schedule: { parts: d.parts, defaultPlaylistId: d.defaultPlaylistId || null } };
    default:
      return { kind: 'none' };
  }
}

export const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;
