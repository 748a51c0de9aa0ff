import { ResendVerificationRequest } from '@pagecast/contracts';
import {
  Button,
  buttonClass,
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
  describeError,
  Field,
  fieldAria,
  HttpError,
  IconAlert,
  IconCheck,
  Input,
  Spinner,
  toast,
} from '@pagecast/ui';
import type { TFunction } from 'i18next';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { Link, useSearchParams } from '@pagecast/router';
import { useResendVerification } from '../api/resend-verification';
import { useVerifyEmail } from '../api/verify-email';
import { readPastedVerification } from '../model/pasted-verification';

/** Tokens already sent in this page's life: a token is single-use, a remount must not send it again. */
const autoVerified = new Set<string>();

/** A server answer gives its message (or the fallback); no answer at all (network) gives the other text. */
function failureText(error: unknown, t: TFunction, serverFallback: string, networkFallback: string): string {
  return error instanceof HttpError ? describeError(error, t, serverFallback) : networkFallback;
}

/**
 * E-mail verification (spec points 2, 4, 8): states pending, success, error; with a token it runs by itself.
 * Pending offers the verify button with a field for the e-mail's link or code (opened on another device), and a
 * resend button: for the address the page knows, else for one typed here.
 */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const email = params.get('email')?.trim() ?? '';
  const [code, setCode] = useState('');
  const [typedEmail, setTypedEmail] = useState('');
  const [emailError, setEmailError] = useState<string | undefined>(undefined);

  const verify = useVerifyEmail({
    onSuccess: () => toast({ title: t('toasts.verifySuccess'), description: t('auth.verifyEmail.successDescription') }),
    onError: (error) =>
      toast({
        title: t('toasts.errorTitle'),
        description: failureText(error, t, t('toasts.verifyFailed'), t('toasts.verifyNetworkError')),
        variant: 'destructive',
      }),
  });

  const resend = useResendVerification({
    onSuccess: (_data, variables) => {
      toast({ title: t('toasts.verificationResent'), description: t('toasts.verificationResentDescription') });
      // the page now knows the address: it says where the mail went, and resends there
      if (variables.email !== email)
        setParams(
          (current) => {
            const next = new URLSearchParams(current);
            next.set('email', variables.email);
            return next;
          },
          { replace: true },
        );
    },
    onError: (error) =>
      toast({
        title: t('toasts.errorTitle'),
        description: failureText(error, t, t('toasts.resendFailed'), t('toasts.resendNetworkError')),
        variant: 'destructive',
      }),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per token
  useEffect(() => {
    if (!token || autoVerified.has(token)) return;
    autoVerified.add(token);
    verify.mutate({ token });
  }, [token]);

  const pasted = readPastedVerification(code);
  const onVerify = (e: FormEvent) => {
    e.preventDefault();
    if (!pasted || verify.isPending) return;
    // a pasted link names its address: resend can use it if this code fails
    if (pasted.email && !email && !typedEmail) setTypedEmail(pasted.email);
    verify.mutate({ token: pasted.token });
  };
  const onResendTyped = (e: FormEvent) => {
    e.preventDefault();
    const parsed = ResendVerificationRequest.safeParse({ email: typedEmail });
    if (!parsed.success) {
      setEmailError(parsed.error.issues[0]?.message ?? 'validation.emailInvalid');
      return;
    }
    setEmailError(undefined);
    resend.mutate(parsed.data);
  };

  const state = verify.isSuccess ? 'success' : verify.isError ? 'error' : 'pending';
  const resendLabel = resend.isPending ? t('auth.verifyEmail.resending') : t('auth.verifyEmail.resend');
  const resendSection = email ? (
    <Button
      variant="outline"
      loading={resend.isPending}
      onClick={() => resend.mutate({ email })}
      data-testid="verify-resend"
    >
      {resendLabel}
    </Button>
  ) : (
    <ResendForm
      email={typedEmail}
      onEmail={setTypedEmail}
      error={emailError}
      sending={resend.isPending}
      label={resendLabel}
      onSubmit={onResendTyped}
    />
  );

  return (
    <div className="pc-center" data-testid="verify-email-page" data-state={state}>
      <Card className="pc-state-card">
        <CardHeader>
          <h1 className="pc-page__title">{t('auth.verifyEmail.title')}</h1>
        </CardHeader>
        {state === 'success' ? (
          <VerifiedView />
        ) : state === 'error' ? (
          <FailedView
            resendSection={resendSection}
            onAnotherCode={() => {
              setCode('');
              verify.reset();
            }}
          />
        ) : (
          <PendingView
            email={email}
            code={code}
            onCode={setCode}
            verifying={verify.isPending}
            canVerify={Boolean(pasted)}
            onVerify={onVerify}
            resendSection={resendSection}
          />
        )}
      </Card>
    </div>
  );
}

/** The address is verified: on to the login. */
function VerifiedView() {
  const { t } = useTranslation();
  return (
    <>
      <CardContent className="pc-stack">
        <CardTitle>
          <IconCheck className="pc-title-icon" />
          {t('auth.verifyEmail.successTitle')}
        </CardTitle>
        <CardDescription>{t('auth.verifyEmail.successDescription')}</CardDescription>
      </CardContent>
      <CardFooter>
        <Link to="/login" className={buttonClass('primary', 'md')} data-testid="verify-to-login">
          {t('auth.verifyEmail.goToLogin')}
        </Link>
      </CardFooter>
    </>
  );
}

/** The link or code did not verify: send another, try another code, or go back. */
function FailedView({ resendSection, onAnotherCode }: { resendSection: ReactNode; onAnotherCode: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      <CardContent className="pc-stack">
        <CardTitle>
          <IconAlert className="pc-title-icon" />
          {t('auth.verifyEmail.errorTitle')}
        </CardTitle>
        <CardDescription>{t('auth.verifyEmail.errorDescription')}</CardDescription>
        {resendSection}
      </CardContent>
      <CardFooter className="pc-row">
        <Button variant="ghost" onClick={onAnotherCode} data-testid="verify-another-code">
          {t('auth.verifyEmail.anotherCode')}
        </Button>
        <Link to="/login" className={buttonClass('ghost', 'md')}>
          {t('auth.verifyEmail.backToLogin')}
        </Link>
      </CardFooter>
    </>
  );
}

/** Waiting for the code: paste it (or follow the e-mail's link), or have another sent. */
function PendingView({
  email,
  code,
  onCode,
  verifying,
  canVerify,
  onVerify,
  resendSection,
}: {
  email: string | null | undefined;
  code: string;
  onCode: (code: string) => void;
  verifying: boolean;
  canVerify: boolean;
  onVerify: (e: FormEvent) => void;
  resendSection: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <>
      <CardContent className="pc-stack">
        {verifying ? <Spinner label={t('auth.verifyEmail.verifying')} /> : null}
        <CardDescription>
          {email ? t('auth.verifyEmail.pendingWithEmail', { email }) : t('auth.verifyEmail.pendingDescription')}
        </CardDescription>
        {/* a registration answers alike for an address that has an account: its mail says how to sign in */}
        <CardDescription data-testid="verify-existing-hint">
          {t('auth.verifyEmail.existingAccountHint')}
        </CardDescription>
        <form className="pc-stack" noValidate onSubmit={onVerify} data-testid="verify-code-form">
          <Field id="verify-code" label={t('auth.verifyEmail.codeLabel')} hint={t('auth.verifyEmail.codeHint')}>
            <Input
              autoComplete="off"
              spellCheck={false}
              value={code}
              onChange={(e) => onCode(e.target.value)}
              data-testid="verify-code"
              {...fieldAria('verify-code', undefined, true)}
            />
          </Field>
          <Button type="submit" loading={verifying} disabled={!canVerify} data-testid="verify-submit">
            {t('auth.verifyEmail.verify')}
          </Button>
        </form>
        {resendSection}
      </CardContent>
      <CardFooter className="pc-row">
        <Link to="/login" className={buttonClass('ghost', 'md')}>
          {t('auth.verifyEmail.backToLogin')}
        </Link>
      </CardFooter>
    </>
  );
}

/** No address known: the member types the one they registered with to have the e-mail sent again. */
function ResendForm({
  email,
  onEmail,
  error,
  sending,
  label,
  onSubmit,
}: {
  email: string;
  onEmail: (email: string) => void;
  error: string | undefined;
  sending: boolean;
  label: string;
  onSubmit: (e: FormEvent) => void;
}) {
  const { t } = useTranslation();
  return (
    <form className="pc-stack" noValidate onSubmit={onSubmit} data-testid="verify-resend-form">
      <Field id="verify-resend-email" label={t('auth.email')} error={error} hint={t('auth.verifyEmail.resendHint')}>
        <Input
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => onEmail(e.target.value)}
          data-testid="verify-resend-email"
          {...fieldAria('verify-resend-email', error, true)}
        />
      </Field>
      <Button type="submit" variant="outline" loading={sending} data-testid="verify-resend">
        {label}
      </Button>
    </form>
  );
}
