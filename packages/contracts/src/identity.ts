import { z } from 'zod';

export const IDENTITY_HEADER = 'x-pagecast-identity';
/**
 * The caller's network address as the gateway saw it (or as a proxy it trusts told it), signed like the identity
 * header: services count per-address limits on it and trust no X-Forwarded-For, so only the gateway says who calls.
 */
export const CLIENT_ADDRESS_HEADER = 'x-pagecast-client-address';
/** Lifetime of the session JWT (claims `exp` - `iat`). */
export const SESSION_TOKEN_TTL_SECONDS = 900;
/** Services refuse an identity header whose `iat` is older than this. */
export const IDENTITY_MAX_AGE_SECONDS = 60;

/**
 * A workspace member's role (in a workspace's order of power). A workspace's id is its owner's user id: every member
 * owns the workspace of their own account, and may be invited into others.
 */
export const WORKSPACE_ROLES = ['owner', 'admin', 'editor', 'publisher', 'broadcaster', 'viewer'] as const;
export const WorkspaceRole = z.enum(WORKSPACE_ROLES);
export type WorkspaceRole = z.infer<typeof WorkspaceRole>;
/** The request header naming the workspace a call acts in (absent: the caller's own workspace, as its owner). */
export const WORKSPACE_HEADER = 'x-pagecast-workspace';

/**
 * The member identity the gateway signs for services. `workspaceId` and `role` name the workspace the call acts in
 * and the caller's role there, as the gateway found it; absent (an older gateway), the caller's own workspace as owner.
 */
export const Identity = z.object({
  userId: z.string(),
  sessionId: z.string(),
  iat: z.number().int(),
  workspaceId: z.string().optional(),
  role: WorkspaceRole.optional(),
});
export type Identity = z.infer<typeof Identity>;

export const SessionClaims = z.object({ sub: z.string(), sid: z.string(), iat: z.number(), exp: z.number() });
export type SessionClaims = z.infer<typeof SessionClaims>;

/** Account `POST /internal/sessions/refresh` (gateway only, not routed from outside). */
export const SessionRefreshRequest = z.object({ sid: z.string().min(1) });
export type SessionRefreshRequest = z.infer<typeof SessionRefreshRequest>;
export const SessionRefreshResponse = z.object({ token: z.string(), expiresAt: z.number().int() });
export type SessionRefreshResponse = z.infer<typeof SessionRefreshResponse>;

// Screens: a paired display's own credential. It is not a member session: services receive it as a
// distinct identity kind and member routes never accept it.
export const DEVICE_COOKIE = 'pc_device';
/** Lifetime of a device token: long, so that a display survives restarts; revocation ends it earlier. */
export const DEVICE_TOKEN_TTL_SECONDS = 365 * 86_400;

/** Claims of the device JWT signed by screens (EdDSA, JWKS at screens' /.well-known/jwks.json). */
export const DeviceClaims = z.object({
  sub: z.string(), // deviceId
  scr: z.string(), // screenId
  own: z.string(), // the member who owns the screen
  typ: z.literal('device'),
  iat: z.number(),
  exp: z.number(),
});
export type DeviceClaims = z.infer<typeof DeviceClaims>;

/** The identity header of a device: kind 'device', never a userId, so code that reads userId sees no member. */
export const DeviceIdentity = z.object({
  kind: z.literal('device'),
  deviceId: z.string(),
  screenId: z.string(),
  ownerId: z.string(),
  iat: z.number().int(),
});
export type DeviceIdentity = z.infer<typeof DeviceIdentity>;
