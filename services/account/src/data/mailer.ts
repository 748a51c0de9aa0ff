import nodemailer from 'nodemailer';
import type { MailContent } from '../domain';

export interface Mailer {
  send(to: string, content: MailContent): Promise<void>;
  close(): void;
}

/** SMTP through nodemailer (SMTP_URL, e.g. smtp://127.0.0.1:1025 for maildev; smtps://user:pass@host for real). */
export function createMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(to, content) {
      await transport.sendMail({ from, to, subject: content.subject, text: content.text, html: content.html });
    },
    close() {
      transport.close();
    },
  };
}
