// Device tokens: EdDSA JWTs signed with this service's own key pair (stored in its database so every replica
// signs with the same key), published as JWKS for the gateway, which verifies them locally as it does sessions.
import { DEVICE_TOKEN_TTL_SECONDS } from '@pagecast/contracts';
import { isDuplicateKeyError } from '@pagecast/service-kit';
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import mongoose from 'mongoose';

interface KeyRecord {
  _id: string; // kid
  generation: number;
  publicJwk: JWK;
  privateJwk: JWK;
  createdAt: Date;
}

const keySchema = new mongoose.Schema<KeyRecord>(
  {
    _id: { type: String, required: true },
    generation: { type: Number, required: true, unique: true },
    publicJwk: { type: mongoose.Schema.Types.Mixed, required: true },
    privateJwk: { type: mongoose.Schema.Types.Mixed, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'keys', versionKey: false, minimize: false },
);

export interface DeviceTokens {
  sign(device: { deviceId: string; screenId: string; ownerId: string }, now?: number): Promise<string>;
  jwks(): Promise<{ keys: JWK[] }>;
}

export function createDeviceTokens(conn: mongoose.Connection): DeviceTokens {
  const define = () => conn.model('DeviceKey', keySchema);
  const model = (conn.models.DeviceKey as ReturnType<typeof define> | undefined) ?? define();
  let loaded: Promise<{ list: KeyRecord[]; kid: string; key: CryptoKey | Uint8Array }> | undefined;

  const ensure = async () => {
    let list = (await model.find().sort({ generation: -1 }).lean()) as KeyRecord[];
    if (list.length === 0) {
      const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
      const kid = `d1-${crypto.randomUUID().slice(0, 8)}`;
      try {
        await model.create({
          _id: kid,
          generation: 1,
          publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' },
          privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'EdDSA' },
          createdAt: new Date(),
        });
      } catch (err) {
        // another replica created generation 1 first: use theirs
        if (!isDuplicateKeyError(err)) throw err;
      }
      list = (await model.find().sort({ generation: -1 }).lean()) as KeyRecord[];
    }
    const newest = list[0];
    if (!newest) throw new Error('no device signing key');
    return { list, kid: newest._id, key: await importJWK(newest.privateJwk, 'EdDSA') };
  };
  const current = () => {
    loaded ??= ensure().catch((err: unknown) => {
      loaded = undefined;
      throw err;
    });
    return loaded;
  };

  return {
    async sign(device, now = Date.now()) {
      const { kid, key } = await current();
      const iat = Math.floor(now / 1000);
      return new SignJWT({ scr: device.screenId, own: device.ownerId, typ: 'device' })
        .setProtectedHeader({ alg: 'EdDSA', kid, typ: 'JWT' })
        .setSubject(device.deviceId)
        .setIssuedAt(iat)
        .setExpirationTime(iat + DEVICE_TOKEN_TTL_SECONDS)
        .sign(key);
    },
    async jwks() {
      const { list } = await current();
      return { keys: list.map((k) => k.publicJwk) };
    },
  };
}
