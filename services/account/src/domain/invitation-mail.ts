import { INVITATION_VALID_DAYS, type InvitableRole } from '@pagecast/contracts';
import type { Locale } from './locale';
import type { MailContent, MailRecipient } from './mail-templates';
import { fullName, type PersonName, salutation } from './names';

/** Each role's name in each language (the shell's catalogues word them the same way). */
export const roleNames: Record<Locale, Record<InvitableRole, string>> = {
  ja: { admin: '管理者', editor: '編集者', publisher: '承認者', broadcaster: '緊急放送担当', viewer: '閲覧者' },
  en: {
    admin: 'Administrator',
    editor: 'Editor',
    publisher: 'Publisher',
    broadcaster: 'Emergency broadcaster',
    viewer: 'Viewer',
  },
  fr: {
    admin: 'Administrateur',
    editor: 'Éditeur',
    publisher: 'Approbateur',
    broadcaster: 'Diffuseur d’urgence',
    viewer: 'Lecteur',
  },
  it: {
    admin: 'Amministratore',
    editor: 'Editor',
    publisher: 'Approvatore',
    broadcaster: 'Operatore di emergenza',
    viewer: 'Visualizzatore',
  },
};

interface Words {
  subject: (inviter: string, workspace: string) => string;
  body: (inviter: string, workspace: string, role: string) => string;
  action: string;
  expiry: (days: number) => string;
  ignore: string;
}

const words: Record<Locale, Words> = {
  ja: {
    subject: (inviter, ws) => `【Pagecast】${inviter}さんから「${ws}」への招待が届いています`,
    body: (inviter, ws, role) =>
      `${inviter}さんが、Pagecast のワークスペース「${ws}」にあなたを「${role}」として招待しました。次のリンクから招待を確認してください。`,
    action: '招待を確認する',
    expiry: (days) => `この招待の有効期限は${days}日間です。`,
    ignore: 'お心当たりのない場合は、このメールを破棄してください。',
  },
  en: {
    subject: (inviter, ws) => `[Pagecast] ${inviter} invited you to “${ws}”`,
    body: (inviter, ws, role) =>
      `${inviter} invited you to join the Pagecast workspace “${ws}” as ${role}. See the invitation with the link below.`,
    action: 'See the invitation',
    expiry: (days) => `This invitation is valid for ${days} days.`,
    ignore: 'If you do not know this person, you can ignore this e-mail.',
  },
  fr: {
    subject: (inviter, ws) => `[Pagecast] ${inviter} vous invite dans « ${ws} »`,
    body: (inviter, ws, role) =>
      `${inviter} vous invite à rejoindre l’espace de travail Pagecast « ${ws} » avec le rôle « ${role} ». Consultez l’invitation avec le lien ci-dessous.`,
    action: 'Voir l’invitation',
    expiry: (days) => `Cette invitation est valable ${days} jours.`,
    ignore: 'Si vous ne connaissez pas cette personne, vous pouvez ignorer cet e-mail.',
  },
  it: {
    subject: (inviter, ws) => `[Pagecast] ${inviter} ti ha invitato in «${ws}»`,
    body: (inviter, ws, role) =>
      `${inviter} ti ha invitato a far parte dello spazio di lavoro Pagecast «${ws}» con il ruolo «${role}». Vedi l’invito con il link qui sotto.`,
    action: 'Vedi l’invito',
    expiry: (days) => `Questo invito è valido ${days} giorni.`,
    ignore: 'Se non conosci questa persona, puoi ignorare questa e-mail.',
  },
};

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The invitation to a workspace, in the invitee's language: who invites (their full name in that language's order,
 * else their address), to which workspace and role, and the link `/invitations/<token>`. `to`: the invitee's name
 * when the address has an account (else greeted by the address).
 */
export function invitationMail(
  locale: Locale,
  opts: {
    publicUrl: string;
    token: string;
    to: MailRecipient;
    inviter: PersonName & { email: string };
    workspaceName: string;
    role: InvitableRole;
  },
): MailContent {
  const w = words[locale];
  const inviter = fullName(locale, opts.inviter) ?? opts.inviter.email;
  const role = roleNames[locale][opts.role];
  const link = new URL(`/invitations/${encodeURIComponent(opts.token)}`, opts.publicUrl).toString();
  const greeting = salutation(locale, opts.to);
  const body = w.body(inviter, opts.workspaceName, role);
  const expiry = w.expiry(INVITATION_VALID_DAYS);
  const text = [greeting, '', body, '', link, '', expiry, w.ignore, '', 'Pagecast'].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.6;color:#222">',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(body)}</p>`,
    `<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#2563eb;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(w.action)}</a></p>`,
    `<p style="font-size:13px;color:#555">${escapeHtml(link)}</p>`,
    `<p style="font-size:13px;color:#555">${escapeHtml(expiry)}<br>${escapeHtml(w.ignore)}</p>`,
    '<p>Pagecast</p></body></html>',
  ].join('\n');
  return { subject: w.subject(inviter, opts.workspaceName), text, html };
}
