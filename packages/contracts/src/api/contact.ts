import { z } from 'zod';
import { constants } from '../constants';
import { defineRoutes } from '../route-def';
import { Email, OkResponse } from '../validation';

export const ContactRequest = z.object({
  name: z
    .string({ error: 'validation.contactNameRequired' })
    .trim()
    .min(1, 'validation.contactNameRequired')
    .max(100, 'validation.nameTooLong'),
  email: Email,
  subject: z
    .string({ error: 'validation.subjectRequired' })
    .trim()
    .min(1, 'validation.subjectRequired')
    .max(200, 'validation.subjectTooLong'),
  message: z
    .string({ error: 'validation.messageMin10' })
    .trim()
    .min(constants.contactMessage.minLength, 'validation.messageMin10')
    .max(constants.contactMessage.maxLength, 'validation.messageTooLong'),
});
export type ContactRequest = z.infer<typeof ContactRequest>;
export const ContactForm = ContactRequest;
export type ContactForm = ContactRequest;

export const contactRoutes = defineRoutes([
  {
    id: 'sendContactMessage',
    method: 'post',
    path: '/api/contact',
    service: 'account',
    auth: 'optional',
    action: 'personal',
    summary: 'Send a contact message (logged in or not)',
    body: ContactRequest,
    response: OkResponse,
  },
]);
