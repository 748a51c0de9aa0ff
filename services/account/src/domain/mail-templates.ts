import type { Locale } from './locale';
import { type PersonName, salutation } from './names';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

interface Texts {
  subject: string;
  body: string;
  action: string;
  expiry: string;
  ignore: string;
}

const verification: Record<Locale, Texts> = {
  ja: {
    subject: '【Pagecast】メールアドレスの確認',
    body: 'Pagecast にご登録いただきありがとうございます。次のリンクからメールアドレスを確認してください。',
    action: 'メールアドレスを確認する',
    expiry: 'このリンクの有効期限は24時間です。',
    ignore: 'お心当たりのない場合は、このメールを破棄してください。',
  },
  en: {
    subject: '[Pagecast] Confirm your e-mail address',
    body: 'Thank you for signing up to Pagecast. Please confirm your e-mail address with the link below.',
    action: 'Confirm my e-mail address',
    expiry: 'This link is valid for 24 hours.',
    ignore: 'If you did not sign up, you can ignore this e-mail.',
  },
  fr: {
    subject: '[Pagecast] Confirmez votre adresse e-mail',
    body: 'Merci de votre inscription à Pagecast. Veuillez confirmer votre adresse e-mail avec le lien ci-dessous.',
    action: 'Confirmer mon adresse e-mail',
    expiry: 'Ce lien est valable 24 heures.',
    ignore: 'Si vous ne vous êtes pas inscrit, vous pouvez ignorer cet e-mail.',
  },
  it: {
    subject: '[Pagecast] Conferma il tuo indirizzo e-mail',
    body: 'Grazie per esserti registrato a Pagecast. Conferma il tuo indirizzo e-mail con il link qui sotto.',
    action: 'Conferma il mio indirizzo e-mail',
    expiry: 'Questo link è valido per 24 ore.',
    ignore: 'Se non ti sei registrato, puoi ignorare questa e-mail.',
  },
};

const reset: Record<Locale, Texts> = {
  ja: {
    subject: '【Pagecast】パスワードの再設定',
    body: 'パスワード再設定のリクエストを受け付けました。次のリンクから新しいパスワードを設定してください。',
    action: 'パスワードを再設定する',
    expiry: 'このリンクの有効期限は1時間で、一度だけ使用できます。',
    ignore: 'お心当たりのない場合は、このメールを破棄してください。パスワードは変更されません。',
  },
  en: {
    subject: '[Pagecast] Reset your password',
    body: 'We received a request to reset your password. Set a new password with the link below.',
    action: 'Reset my password',
    expiry: 'This link is valid for 1 hour and can be used once.',
    ignore: 'If you did not ask for this, ignore this e-mail: your password stays unchanged.',
  },
  fr: {
    subject: '[Pagecast] Réinitialisez votre mot de passe',
    body: 'Nous avons reçu une demande de réinitialisation de votre mot de passe. Choisissez-en un nouveau avec le lien ci-dessous.',
    action: 'Réinitialiser mon mot de passe',
    expiry: 'Ce lien est valable 1 heure et ne peut servir qu’une fois.',
    ignore: 'Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail : votre mot de passe reste inchangé.',
  },
  it: {
    subject: '[Pagecast] Reimposta la tua password',
    body: 'Abbiamo ricevuto una richiesta di reimpostazione della password. Scegline una nuova con il link qui sotto.',
    action: 'Reimposta la mia password',
    expiry: 'Questo link è valido per 1 ora e può essere usato una sola volta.',
    ignore: 'Se non hai fatto tu questa richiesta, ignora questa e-mail: la tua password resta invariata.',
  },
};

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function render(t: Texts, greeting: string, link: string): MailContent {
  const text = [greeting, '', t.body, '', link, '', t.expiry, t.ignore, '', 'Pagecast'].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.6;color:#222">',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(t.body)}</p>`,
    `<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#2563eb;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(t.action)}</a></p>`,
    `<p style="font-size:13px;color:#555">${escapeHtml(link)}</p>`,
    `<p style="font-size:13px;color:#555">${escapeHtml(t.expiry)}<br>${escapeHtml(t.ignore)}</p>`,
    '<p>Pagecast</p></body></html>',
  ].join('\n');
  return { subject: t.subject, text, html };
}

/** Who a mail goes to: its address and the member's name (greeted in the language's order, domain/names.ts). */
export interface MailRecipient extends PersonName {
  email: string;
}

export function verificationMail(
  locale: Locale,
  opts: MailRecipient & { publicUrl: string; token: string },
): MailContent {
  const url = new URL('/verify-email', opts.publicUrl);
  url.searchParams.set('token', opts.token);
  url.searchParams.set('email', opts.email);
  return render(verification[locale], salutation(locale, opts), url.toString());
}

export function passwordResetMail(
  locale: Locale,
  opts: MailRecipient & { publicUrl: string; token: string },
): MailContent {
  const url = new URL('/reset-password', opts.publicUrl);
  url.searchParams.set('token', opts.token);
  return render(reset[locale], salutation(locale, opts), url.toString());
}

interface AttemptTexts {
  subject: string;
  body: string;
  /** what to do when it was the member: sign in, or reset the password when it is forgotten */
  ifYou: string;
  signIn: string;
  reset: string;
  /** for an account without a password of its own (an old external one): only signing in helps */
  ifYouNoPassword: string;
  ignore: string;
}

const registrationAttempt: Record<Locale, AttemptTexts> = {
  ja: {
    subject: '【Pagecast】このメールアドレスで新規登録が試みられました',
    body: 'このメールアドレスで Pagecast の新規登録が試みられましたが、このアドレスのアカウントは既にあります。新しいアカウントは作成されていません。',
    ifYou:
      'ご自身による操作の場合は、次のリンクからログインしてください。パスワードをお忘れの場合は、パスワードを再設定してください。',
    signIn: 'ログインする',
    reset: 'パスワードを再設定する',
    ifYouNoPassword: 'ご自身による操作の場合は、次のリンクからログインしてください。',
    ignore: 'お心当たりのない場合は、このメールを破棄してください。アカウントには何も変更されていません。',
  },
  en: {
    subject: '[Pagecast] Someone tried to sign up with your e-mail address',
    body: 'Someone tried to sign up to Pagecast with this e-mail address, which already has an account. No new account was created.',
    ifYou: 'If it was you, log in with the link below. If you forgot your password, reset it.',
    signIn: 'Log in',
    reset: 'Reset my password',
    ifYouNoPassword: 'If it was you, log in with the link below.',
    ignore: 'If it was not you, you can ignore this e-mail: nothing changed in your account.',
  },
  fr: {
    subject: '[Pagecast] Quelqu’un a tenté de s’inscrire avec votre adresse e-mail',
    body: 'Quelqu’un a tenté de s’inscrire à Pagecast avec cette adresse e-mail, qui a déjà un compte. Aucun nouveau compte n’a été créé.',
    ifYou:
      'Si c’était vous, connectez-vous avec le lien ci-dessous. Si vous avez oublié votre mot de passe, réinitialisez-le.',
    signIn: 'Me connecter',
    reset: 'Réinitialiser mon mot de passe',
    ifYouNoPassword: 'Si c’était vous, connectez-vous avec le lien ci-dessous.',
    ignore: 'Si ce n’était pas vous, vous pouvez ignorer cet e-mail : rien n’a changé dans votre compte.',
  },
  it: {
    subject: '[Pagecast] Qualcuno ha provato a registrarsi con il tuo indirizzo e-mail',
    body: 'Qualcuno ha provato a registrarsi a Pagecast con questo indirizzo e-mail, che ha già un account. Non è stato creato nessun nuovo account.',
    ifYou: 'Se sei stato tu, accedi con il link qui sotto. Se hai dimenticato la password, reimpostala.',
    signIn: 'Accedi',
    reset: 'Reimposta la mia password',
    ifYouNoPassword: 'Se sei stato tu, accedi con il link qui sotto.',
    ignore: 'Se non sei stato tu, puoi ignorare questa e-mail: nel tuo account non è cambiato nulla.',
  },
};

const button = (href: string, label: string) =>
  `<a href="${escapeHtml(href)}" style="display:inline-block;margin:0 8px 8px 0;padding:10px 18px;background:#2563eb;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(label)}</a>`;

/**
 * To the holder of an address someone tried to register again: the registration answered as for a new address (so it
 * tells nobody which addresses have accounts), and this mail tells the holder what to do if it was them: sign in, or
 * reset the password (`canReset`: the account has a password of its own).
 */
export function registrationAttemptMail(
  locale: Locale,
  opts: MailRecipient & { publicUrl: string; canReset: boolean },
): MailContent {
  const t = registrationAttempt[locale];
  const greeting = salutation(locale, opts);
  const login = new URL('/login', opts.publicUrl).toString();
  const resetUrl = new URL('/request-password-reset', opts.publicUrl);
  resetUrl.searchParams.set('email', opts.email);
  const reset = resetUrl.toString();
  const links = opts.canReset ? [`${t.signIn}: ${login}`, `${t.reset}: ${reset}`] : [`${t.signIn}: ${login}`];
  const text = [
    greeting,
    '',
    t.body,
    '',
    opts.canReset ? t.ifYou : t.ifYouNoPassword,
    ...links,
    '',
    t.ignore,
    '',
    'Pagecast',
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.6;color:#222">',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(t.body)}</p>`,
    `<p>${escapeHtml(opts.canReset ? t.ifYou : t.ifYouNoPassword)}</p>`,
    `<p>${button(login, t.signIn)}${opts.canReset ? button(reset, t.reset) : ''}</p>`,
    `<p style="font-size:13px;color:#555">${escapeHtml(t.ignore)}</p>`,
    '<p>Pagecast</p></body></html>',
  ].join('\n');
  return { subject: t.subject, text, html };
}
