// Data of every journey made through the public API only (no database writes): what the migration test copies and
// the ownership probe attacks. Each step is the member's own call, as the pages make it.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mailedInvitation, uniqueEmail } from './account-flows';
import { baseUrl } from './browser';
import { type Api, until, type UploadedFile, uploadPdf } from './player-helpers';

const require = createRequire(import.meta.url);

/** Uploads `bytes` as `name` (the upload's field is `pdf` for every kind) and waits until it has been converted. */
export async function uploadBytes(
  api: Api,
  bytes: Uint8Array<ArrayBuffer>,
  type: string,
  name: string,
  title: string,
): Promise<UploadedFile> {
  const form = new FormData();
  form.append('pdf', new Blob([bytes], { type }), name);
  form.append('title', title);
  const created = await api.json<UploadedFile>('POST', '/api/files/upload', form);
  let now = created;
  await until(
    `${name} converted`,
    async () => {
      now = await api.json<UploadedFile>('GET', `/api/files/${created.id}`);
      return now.status !== 'processing';
    },
    90_000,
    250,
  );
  if (now.status === 'disabled') throw new Error(`conversion of ${name} failed`);
  return now;
}

/**
 * A 64x48 JPEG made by sharp (file-conversion's dependency): a photo without a file in the repository. Its colour
 * comes from the title, so two members' photos are not the same image (page images are keyed by their content).
 */
export async function uploadPhoto(api: Api, title: string): Promise<UploadedFile> {
  const sharp = require('sharp') as typeof import('sharp').default;
  const hue = createHash('sha256').update(title).digest();
  const background = { r: hue[0] ?? 0, g: hue[1] ?? 0, b: hue[2] ?? 0 };
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background } })
    .jpeg()
    .toBuffer();
  return uploadBytes(api, new Uint8Array(jpeg), 'image/jpeg', 'photo.jpg', title);
}

/** A 2-second 320x240 H.264 video made by ffmpeg. */
export async function uploadVideo(api: Api, title: string): Promise<UploadedFile> {
  const out = path.join(tmpdir(), `pagecast-journeys-${process.pid}-${Date.now()}.mp4`);
  const made = spawnSync('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=10:d=2'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', '-y', out],
  ]);
  if (made.status !== 0) throw new Error(`ffmpeg: ${String(made.stderr)}`);
  return uploadBytes(api, new Uint8Array(readFileSync(out)), 'video/mp4', 'clip.mp4', title);
}

/** A display asks for a code (the public pairing call) and the member claims it: the new screen's id. */
export async function pairScreen(api: Api, name: string): Promise<string> {
  const res = await fetch(`${baseUrl()}/api/screens/pairing`, { method: 'POST' });
  if (!res.ok) throw new Error(`pairing: ${res.status} ${await res.text()}`);
  const { code } = (await res.json()) as { code: string };
  return (await api.json<{ id: string }>('POST', '/api/screens', { code, name, timeZone: 'Asia/Tokyo' })).id;
}

/** 10,000 points by card: a payment intent at the card provider (localstripe), confirmed with its test card. */
export async function buyPointsByCard(api: Api): Promise<number> {
  const intent = await api.json<{ paymentIntentId: string }>('POST', '/api/create-payment-intent', { amount: 10000 });
  const done = await api.json<{ added: number }>('POST', '/api/points/confirm-payment', {
    paymentIntentId: intent.paymentIntentId,
    paymentMethodId: 'pm_card_visa',
  });
  return done.added;
}

/** The workspace of the member's own account (its id is the member's user id). */
export async function ownWorkspaceId(api: Api): Promise<string> {
  return (await api.json<{ id: string }>('GET', '/api/auth/user')).id;
}

/** `owner` invites `member` with `role`; `member` accepts through the mailed link. */
export async function joinWorkspace(owner: Api, workspaceId: string, member: Api, role: string): Promise<void> {
  await owner.json('POST', `/api/workspaces/${workspaceId}/invitations`, {
    email: member.member.email,
    role,
    language: 'ja',
  });
  const link = await mailedInvitation(member.member.email);
  await member.json('POST', `/api/invitations/${link.split('/').at(-1)}/accept`, {});
}

/** A pending invitation to an address without an account: its id and mailed token. */
export async function pendingInvitation(
  owner: Api,
  workspaceId: string,
  role = 'editor',
  email = uniqueEmail('invitee'),
): Promise<{ id: string; token: string; email: string }> {
  const made = await owner.json<{ id: string }>('POST', `/api/workspaces/${workspaceId}/invitations`, {
    email,
    role,
    language: 'fr',
  });
  const token = (await mailedInvitation(email)).split('/').at(-1) ?? '';
  return { id: made.id, token, email };
}

export interface ContentSet {
  pdf: UploadedFile;
  photo: UploadedFile;
  playlist: string;
  screen: string;
  group: string;
  template: string;
  takeover: string;
  bulkChange: string;
}

/**
 * A member's content of every kind: a PDF and a photo, a playlist of both, a paired screen on a schedule (two day
 * parts), a group holding it and playing the playlist, a saved takeover template and a takeover started from it,
 * alert rules changed, and a bulk change (time zone) over the group.
 */
export async function contentOfEveryKind(api: Api, label: string, pdfName = 'vertical.pdf'): Promise<ContentSet> {
  const pdf = await uploadPdf(api, pdfName, `${label} deck`, 5);
  const photo = await uploadPhoto(api, `${label} photo`);
  const playlist = (await api.json<{ id: string }>('POST', '/api/playlists', { name: `${label} loop` })).id;
  await api.json('PUT', `/api/playlists/${playlist}/items`, { fileIds: [pdf.id, photo.id] });
  const screen = await pairScreen(api, `${label} lobby`);
  await api.json('PUT', `/api/screens/${screen}`, {
    assignment: {
      kind: 'schedule',
      schedule: {
        parts: [
          { days: [1, 2, 3, 4, 5], start: '09:00', end: '18:00', playlistId: playlist },
          { days: [6], start: '22:00', end: '02:00', playlistId: playlist },
        ],
        defaultPlaylistId: null,
      },
    },
  });
  const group = (
    await api.json<{ id: string }>('POST', '/api/screens/groups', {
      name: `${label} floor`,
      screenIds: [screen],
      assignment: { kind: 'playlist', playlistId: playlist },
    })
  ).id;
  const template = (
    await api.json<{ id: string }>('POST', '/api/screens/takeover-templates', {
      name: `${label} drill`,
      content: { kind: 'message', title: `${label} evacuate`, body: `${label} stay calm` },
      minutes: 60,
    })
  ).id;
  const takeover = (
    await api.json<{ id: string }>('POST', '/api/screens/takeovers', {
      target: { kind: 'groups', groupIds: [group] },
      templateId: template,
    })
  ).id;
  const rules = await api.json<Record<string, Record<string, unknown>>>('GET', '/api/screens/alert-rules');
  await api.json('PUT', '/api/screens/alert-rules', { ...rules, drills: !rules.drills });
  const bulkChange = (
    await api.json<{ changeId: string }>('POST', '/api/screens/bulk', {
      selection: { by: 'group', groupId: group },
      change: { kind: 'set-time-zone', timeZone: 'Asia/Tokyo' },
    })
  ).changeId;
  return { pdf, photo, playlist, screen, group, template, takeover, bulkChange };
}

/** A listing on sale at 3,000 points (a corpus PDF, published with an author). */
export async function listingOnSale(seller: Api, title: string, pdfName = 'vertical.pdf'): Promise<UploadedFile> {
  const file = await uploadPdf(seller, pdfName, title, 5);
  await seller.json('PUT', `/api/files/${file.id}/publish`, {
    isPublished: true,
    publishPrice: 3000,
    copyrightInfo: { authorName: '山田 花子' },
  });
  return file;
}
