// The e-mails of approval: a proposal waiting (to each of the workspace's owner, admins and publishers but its
// editor) and a decision (to the editor: approved, or rejected with the reason quoted), in the reader's language,
// with plural forms, names read when the mail is worded and a link to the proposal in its workspace.
import type { EventData } from '@pagecast/contracts';
import type { Locale } from './locale';
import type { MailContent, MailRecipient } from './mail-templates';
import { fullName, type PersonName, salutation } from './names';

type Created = EventData<'screens.proposal.created.v1'>;
type Decided = EventData<'screens.proposal.decided.v1'>;
export type ProposalKind = Created['kind'];
type Plural = 'one' | 'other';
type Counted = Record<Plural, (n: number) => string>;

interface ProposalTexts {
  prefix: string;
  /** the change, as the object of "X proposed …" */
  kind: Record<ProposalKind, string>;
  /** someone's name as a sentence uses it (Japanese adds さん); `null`: the person is gone */
  who: (name: string | null) => string;
  createdSubject: (who: string, n: number, plural: Plural) => string;
  createdBody: (who: string, kind: string, workspace: string) => string;
  /** what approving would change on the screens; n = 0 has its own sentence */
  createdScreens: Counted;
  createdNoScreens: string;
  createdAction: string;
  createdFooter: string;
  approvedSubject: string;
  approvedBody: (who: string, kind: string, workspace: string) => string;
  approvedScreens: Counted;
  rejectedSubject: string;
  rejectedBody: (who: string, kind: string, workspace: string) => string;
  reason: (reason: string) => string;
  rejectedNothing: string;
  decidedAction: string;
  /** between an action and its link; French sets a narrow no-break space before ':' */
  colon: string;
}

const same = (f: (n: number) => string): Counted => ({ one: f, other: f });
/** U+202F, the narrow no-break space French sets before ':' and inside « » */
const nnbsp = '\u202f';

const texts: Record<Locale, ProposalTexts> = {
  ja: {
    prefix: '【Pagecast】',
    kind: {
      'update-screen': 'スクリーンの設定の変更',
      'create-group': 'グループの作成',
      'update-group': 'グループの変更',
      'delete-group': 'グループの削除',
      'group-order': 'グループの優先順位の変更',
      bulk: '一括変更',
    },
    who: (name) => (name ? `${name}さん` : '退会したメンバー'),
    createdSubject: (who, n) =>
      n > 0 ? `${who}が${n}台のスクリーンの変更を提案しました` : `${who}が変更を提案しました`,
    createdBody: (who, kind, ws) =>
      `${who}が、ワークスペース「${ws}」で${kind}を提案しました。この提案はあなたの承認を待っています。`,
    createdScreens: same((n) => `承認すると、${n}台のスクリーンで再生される内容が変わります。`),
    createdNoScreens: '承認しても、再生される内容が変わるスクリーンはありません。',
    createdAction: '提案の内容を確認し、承認または却下してください',
    createdFooter: 'このメールは、このワークスペースで変更を承認できる方にお送りしています。',
    approvedSubject: 'あなたの提案が承認されました',
    approvedBody: (who, kind, ws) => `${who}が、ワークスペース「${ws}」でのあなたの提案（${kind}）を承認しました。`,
    approvedScreens: same((n) => `${n}台のスクリーンに反映されています。`),
    rejectedSubject: 'あなたの提案は却下されました',
    rejectedBody: (who, kind, ws) => `${who}が、ワークスペース「${ws}」でのあなたの提案（${kind}）を却下しました。`,
    reason: (r) => `理由：「${r}」`,
    rejectedNothing: 'スクリーンで再生される内容は変わっていません。',
    decidedAction: '提案を見る',
    colon: ': ',
  },
  en: {
    prefix: '[Pagecast] ',
    kind: {
      'update-screen': 'a change to a screen’s settings',
      'create-group': 'a new group',
      'update-group': 'a change to a group',
      'delete-group': 'deleting a group',
      'group-order': 'a new order of the groups',
      bulk: 'a bulk change',
    },
    who: (name) => name ?? 'A former member',
    createdSubject: (who, n, p) =>
      n > 0 ? `${who} proposed a change to ${n} ${p === 'one' ? 'screen' : 'screens'}` : `${who} proposed a change`,
    createdBody: (who, kind, ws) =>
      `${who} proposed ${kind} in the workspace “${ws}”. The proposal waits for your decision.`,
    createdScreens: {
      one: (n) => `If it is approved, what ${n} screen plays will change.`,
      other: (n) => `If it is approved, what ${n} screens play will change.`,
    },
    createdNoScreens: 'If it is approved, no screen will play anything different.',
    createdAction: 'See the proposal, then approve or reject it',
    createdFooter: 'You receive this e-mail because you may approve changes in this workspace.',
    approvedSubject: 'Your proposal was approved',
    approvedBody: (who, kind, ws) => `${who} approved your proposal in the workspace “${ws}”: ${kind}.`,
    approvedScreens: {
      one: (n) => `It now applies to ${n} screen.`,
      other: (n) => `It now applies to ${n} screens.`,
    },
    rejectedSubject: 'Your proposal was rejected',
    rejectedBody: (who, kind, ws) => `${who} rejected your proposal in the workspace “${ws}”: ${kind}.`,
    reason: (r) => `Reason: “${r}”`,
    rejectedNothing: 'Nothing changed on the screens.',
    decidedAction: 'See the proposal',
    colon: ': ',
  },
  fr: {
    prefix: '[Pagecast] ',
    kind: {
      'update-screen': 'une modification des réglages d’un écran',
      'create-group': 'un nouveau groupe',
      'update-group': 'une modification d’un groupe',
      'delete-group': 'la suppression d’un groupe',
      'group-order': 'un nouvel ordre des groupes',
      bulk: 'une modification groupée',
    },
    who: (name) => name ?? 'Un ancien membre',
    createdSubject: (who, n, p) =>
      n > 0
        ? `${who} propose une modification ${p === 'one' ? `de ${n} écran` : `de ${n} écrans`}`
        : `${who} propose une modification`,
    createdBody: (who, kind, ws) =>
      `${who} propose ${kind} dans l’espace de travail «${nnbsp}${ws}${nnbsp}». Cette proposition attend votre décision.`,
    createdScreens: {
      one: (n) => `Si elle est approuvée, ce que diffuse ${n} écran changera.`,
      other: (n) => `Si elle est approuvée, ce que diffusent ${n} écrans changera.`,
    },
    createdNoScreens: 'Si elle est approuvée, aucun écran ne diffusera autre chose.',
    createdAction: 'Voir la proposition, puis l’approuver ou la refuser',
    createdFooter:
      'Vous recevez cet e-mail parce que vous pouvez approuver les modifications dans cet espace de travail.',
    approvedSubject: 'Votre proposition a été approuvée',
    approvedBody: (who, kind, ws) =>
      `${who} a approuvé votre proposition dans l’espace de travail «${nnbsp}${ws}${nnbsp}»${nnbsp}: ${kind}.`,
    approvedScreens: {
      one: (n) => `Elle s’applique désormais à ${n} écran.`,
      other: (n) => `Elle s’applique désormais à ${n} écrans.`,
    },
    rejectedSubject: 'Votre proposition a été refusée',
    rejectedBody: (who, kind, ws) =>
      `${who} a refusé votre proposition dans l’espace de travail «${nnbsp}${ws}${nnbsp}»${nnbsp}: ${kind}.`,
    reason: (r) => `Motif${nnbsp}: «${nnbsp}${r}${nnbsp}»`,
    rejectedNothing: 'Rien n’a changé sur les écrans.',
    decidedAction: 'Voir la proposition',
    colon: `${nnbsp}: `,
  },
  it: {
    prefix: '[Pagecast] ',
    kind: {
      'update-screen': 'una modifica alle impostazioni di uno schermo',
      'create-group': 'un nuovo gruppo',
      'update-group': 'una modifica a un gruppo',
      'delete-group': 'l’eliminazione di un gruppo',
      'group-order': 'un nuovo ordine dei gruppi',
      bulk: 'una modifica in blocco',
    },
    who: (name) => name ?? 'Un ex membro',
    createdSubject: (who, n, p) =>
      n > 0
        ? `${who} propone una modifica ${p === 'one' ? `a ${n} schermo` : `a ${n} schermi`}`
        : `${who} propone una modifica`,
    createdBody: (who, kind, ws) =>
      `${who} propone ${kind} nell’area di lavoro «${ws}». La proposta attende la tua decisione.`,
    createdScreens: {
      one: (n) => `Se viene approvata, cambierà ciò che riproduce ${n} schermo.`,
      other: (n) => `Se viene approvata, cambierà ciò che riproducono ${n} schermi.`,
    },
    createdNoScreens: 'Se viene approvata, nessuno schermo riprodurrà nulla di diverso.',
    createdAction: 'Vedi la proposta, poi approvala o rifiutala',
    createdFooter: 'Ricevi questa e-mail perché puoi approvare le modifiche in quest’area di lavoro.',
    approvedSubject: 'La tua proposta è stata approvata',
    approvedBody: (who, kind, ws) => `${who} ha approvato la tua proposta nell’area di lavoro «${ws}»: ${kind}.`,
    approvedScreens: {
      one: (n) => `Ora si applica a ${n} schermo.`,
      other: (n) => `Ora si applica a ${n} schermi.`,
    },
    rejectedSubject: 'La tua proposta è stata respinta',
    rejectedBody: (who, kind, ws) => `${who} ha respinto la tua proposta nell’area di lavoro «${ws}»: ${kind}.`,
    reason: (r) => `Motivo: «${r}»`,
    rejectedNothing: 'Sugli schermi non è cambiato nulla.',
    decidedAction: 'Vedi la proposta',
    colon: ': ',
  },
};

/** The language's plural category of `n` (Intl: French takes 0 and 1 as singular, Japanese has one form). */
const pluralOf = (locale: Locale, n: number): Plural =>
  new Intl.PluralRules(locale).select(n) === 'one' ? 'one' : 'other';

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Where both mails lead: the proposal, in its workspace (`w`, so the page acts there). */
export function proposalLink(publicUrl: string, proposalId: string, workspaceId: string): string {
  const url = new URL(`/screens/proposals/${encodeURIComponent(proposalId)}`, publicUrl);
  url.searchParams.set('w', workspaceId);
  return url.toString();
}

/** A person as a sentence names them: their full name in the language's order, else their address, else gone. */
const nameOf = (t: ProposalTexts, locale: Locale, p: (PersonName & { email: string }) | null) =>
  t.who(p ? (fullName(locale, p) ?? p.email) : null);

function render(
  locale: Locale,
  opts: { to: MailRecipient; subject: string; paragraphs: string[]; action: string; link: string; footer?: string },
): MailContent {
  const t = texts[locale];
  const greeting = salutation(locale, opts.to);
  const text = [
    greeting,
    '',
    ...opts.paragraphs.flatMap((p) => [p, '']),
    `${opts.action}${t.colon}${opts.link}`,
    '',
    ...(opts.footer ? [opts.footer, ''] : []),
    'Pagecast',
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.6;color:#222">',
    `<p>${escapeHtml(greeting)}</p>`,
    ...opts.paragraphs.map((p) => `<p style="white-space:pre-line">${escapeHtml(p)}</p>`),
    `<p><a href="${escapeHtml(opts.link)}" style="display:inline-block;padding:10px 18px;background:#2563eb;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(opts.action)}</a></p>`,
    `<p style="font-size:13px;color:#555">${escapeHtml(opts.link)}</p>`,
    ...(opts.footer ? [`<p style="font-size:13px;color:#555">${escapeHtml(opts.footer)}</p>`] : []),
    '<p>Pagecast</p></body></html>',
  ].join('\n');
  return { subject: `${t.prefix}${opts.subject}`, text, html };
}

/** To someone who may decide: who proposed what kind of change, to how many screens, and where to decide. */
export function proposalCreatedMail(
  locale: Locale,
  opts: {
    to: MailRecipient;
    publicUrl: string;
    proposer: (PersonName & { email: string }) | null;
    workspaceName: string;
    proposal: Created;
  },
): MailContent {
  const t = texts[locale];
  const { proposal } = opts;
  const n = proposal.screensTotal;
  const who = nameOf(t, locale, opts.proposer);
  return render(locale, {
    to: opts.to,
    subject: t.createdSubject(who, n, pluralOf(locale, n)),
    paragraphs: [
      t.createdBody(who, t.kind[proposal.kind], opts.workspaceName),
      n > 0 ? t.createdScreens[pluralOf(locale, n)](n) : t.createdNoScreens,
    ],
    action: t.createdAction,
    link: proposalLink(opts.publicUrl, proposal.proposalId, proposal.workspaceId),
    footer: t.createdFooter,
  });
}

/** To the proposal's editor: approved (and on how many screens it now applies), or rejected with the reason. */
export function proposalDecidedMail(
  locale: Locale,
  opts: {
    to: MailRecipient;
    publicUrl: string;
    decider: (PersonName & { email: string }) | null;
    workspaceName: string;
    decision: Decided;
  },
): MailContent {
  const t = texts[locale];
  const { decision } = opts;
  const n = decision.screensTotal;
  const who = nameOf(t, locale, opts.decider);
  const kind = t.kind[decision.kind];
  const approved = decision.outcome === 'approved';
  const paragraphs = approved
    ? [t.approvedBody(who, kind, opts.workspaceName), ...(n > 0 ? [t.approvedScreens[pluralOf(locale, n)](n)] : [])]
    : [
        t.rejectedBody(who, kind, opts.workspaceName),
        ...(decision.reason ? [t.reason(decision.reason)] : []),
        t.rejectedNothing,
      ];
  return render(locale, {
    to: opts.to,
    subject: approved ? t.approvedSubject : t.rejectedSubject,
    paragraphs,
    action: t.decidedAction,
    link: proposalLink(opts.publicUrl, decision.proposalId, decision.workspaceId),
  });
}
