import { isDuplicateKeyError } from '@pagecast/service-kit';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import mongoose from 'mongoose';

/** A session-signing key pair (Ed25519), shared by every replica through the database. */
export interface SigningKeyRecord {
  _id: string; // kid
  /** the newest generation signs; every stored one is published in the JWKS */
  generation: number;
  alg: 'EdDSA';
  publicJwk: JWK;
  privateJwk: JWK;
  createdAt: Date;
}

const keySchema = new mongoose.Schema<SigningKeyRecord>(
  {
    _id: { type: String, required: true },
    generation: { type: Number, required: true, unique: true },
    alg: { type: String, required: true },
    publicJwk: { type: mongoose.Schema.Types.Mixed, required: true },
    privateJwk: { type: mongoose.Schema.Types.Mixed, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'keys', versionKey: false, minimize: false },
);

const defineModel = (conn: mongoose.Connection) => conn.model('SigningKey', keySchema);
type KeyModel = ReturnType<typeof defineModel>;

export function createSigningKeyRepository(conn: mongoose.Connection) {
  const model = (conn.models.SigningKey as KeyModel | undefined) ?? defineModel(conn);

  const list = () => model.find().sort({ generation: -1 }).lean<SigningKeyRecord[]>();

  /** Adds the next generation; when another replica adds it first (unique generation), theirs is kept. */
  const addGeneration = async (generation: number): Promise<void> => {
    const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const kid = `k${generation}-${crypto.randomUUID().slice(0, 8)}`;
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' };
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'EdDSA' };
    try {
      await model.create({ _id: kid, generation, alg: 'EdDSA', publicJwk, privateJwk, createdAt: new Date() });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
  };

  return {
    model,
    list,
    /** All keys, newest first; creates the first pair when there is none. */
    async ensure(): Promise<SigningKeyRecord[]> {
      const keys = await list();
      if (keys.length > 0) return keys;
      await addGeneration(1);
      return list();
    },
    /** Rotation: a new generation signs from now on; older ones stay published until removed. */
    async rotate(): Promise<SigningKeyRecord[]> {
      const keys = await list();
      await addGeneration((keys[0]?.generation ?? 0) + 1);
      return list();
    },
  };
}
export type SigningKeyRepository = ReturnType<typeof createSigningKeyRepository>;
