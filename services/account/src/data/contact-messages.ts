import { randomUUID } from 'node:crypto';
import { constants } from '@pagecast/contracts';
import mongoose from 'mongoose';

export interface ContactMessageRecord {
  _id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  status: string;
  /** the sender when signed in */
  userId: string | null;
  createdAt: Date;
}

const contactSchema = new mongoose.Schema<ContactMessageRecord>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    email: { type: String, required: true },
    subject: { type: String, required: true },
    message: { type: String, required: true },
    status: { type: String, required: true, default: constants.contactMessage.defaultStatus },
    userId: { type: String, default: null },
    createdAt: { type: Date, required: true },
  },
  { collection: 'contact_messages', versionKey: false },
);
contactSchema.index({ status: 1, createdAt: -1 });

const defineModel = (conn: mongoose.Connection) => conn.model('ContactMessage', contactSchema);
type ContactModel = ReturnType<typeof defineModel>;

export function createContactMessageRepository(conn: mongoose.Connection) {
  const model = (conn.models.ContactMessage as ContactModel | undefined) ?? defineModel(conn);
  return {
    model,
    async create(input: {
      name: string;
      email: string;
      subject: string;
      message: string;
      userId: string | null;
    }): Promise<ContactMessageRecord> {
      const doc: ContactMessageRecord = {
        _id: randomUUID(),
        ...input,
        status: constants.contactMessage.defaultStatus,
        createdAt: new Date(),
      };
      await model.create(doc);
      return doc;
    },
  };
}
export type ContactMessageRepository = ReturnType<typeof createContactMessageRepository>;
