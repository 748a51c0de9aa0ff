export { Badge, type BadgeVariant } from './components/badge';
export { Button, type ButtonProps, type ButtonSize, type ButtonVariant, buttonClass } from './components/button';
export { ChangeList, changeValue } from './components/change-list';
export { CopyrightDetails } from './components/copyright-details';
export { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from './components/card';
export { Dialog, type DialogProps, Modal } from './components/dialog';
export { FieldError, Input, Label, PasswordInput } from './components/form';
export {
  IconAlert,
  IconArrowDown,
  IconArrowLeft,
  IconArrowUp,
  IconCheck,
  IconChevronLeft,
  IconChevronRight,
  IconClose,
  IconMenu,
  IconExit,
  IconExitFullscreen,
  IconFullscreen,
  IconGift,
  IconMinus,
  IconPause,
  IconPlay,
  type IconProps,
  IconTag,
  IconUpload,
} from './components/icons';
export { Field, fieldAria } from './components/form-field';
export { PlayerFrame } from './components/player-frame';
export { Spinner } from './components/spinner';
export {
  avatarInitials,
  CURRENT_USER_STALE_TIME_MS,
  currentUserQuery,
  currentUserQueryKey,
  type SessionUser,
  useAuth,
} from './session/current-user';
export { followBalance, pointsSummaryQuery, pointsSummaryQueryKey } from './session/balance';
export { BUY_POINTS_PARAM, BUY_POINTS_PATH } from './session/buy-points';
export { dashboardStatsQueryKey } from './session/dashboard-stats';
export {
  accessibleFilesQueryKey,
  LICENCE_ENDING_SOON_DAYS,
  licenceDaysLeft,
  licenceEndsSoon,
  type PurchasedFile,
  purchasedFilesOf,
  purchasedFilesQuery,
} from './session/purchased-files';
export { describeError } from './session/errors';
export {
  apiRequest,
  firstServerRead,
  formatHttpError,
  getQueryFn,
  HttpError,
  isUnauthorizedError,
  noteServerRead,
  throwIfResNotOk,
  withReadSince,
  type UnauthorizedBehavior,
} from './session/http';
export type { MutationCallbacks } from './session/mutation-callbacks';
export { membershipQuery, membershipQueryKey } from './session/membership';
export { createQueryClient } from './session/query-client';
export { LOGIN_REDIRECT_DELAY_MS, useRequireLogin } from './session/require-login';
export { useSessionExpired } from './session/session-expired';
export {
  CARRIED_RETURN_PAGE_KEY,
  CARRIED_RETURN_PAGE_MAX_MS,
  isRememberablePath,
  isWelcomeOwed,
  NEVER_REMEMBERED,
  RETURN_PAGE_KEY,
  type RememberOptions,
  rememberReturnPage,
  takeCarriedReturnPage,
  takeReturnPage,
  WELCOME_OWED_STATE,
} from './session/return-page';
export {
  dismissToast,
  removeToast,
  shouldDismissOnSwipe,
  TOAST_DURATION_MS,
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY_MS,
  TOAST_SWIPE_THRESHOLD_PX,
  type ToastAction,
  type ToastInput,
  type ToastItem,
  type ToastVariant,
  toast,
} from './toast/toast-store';
export { Toaster, useToast } from './toast/toaster';
export {
  apiFetch,
  currentWorkspace,
  onWorkspaceRefused,
  setCurrentWorkspace,
  subscribeWorkspace,
  useCurrentWorkspace,
  inWorkspace,
  WORKSPACE_PARAM,
  withWorkspace,
  workspaceHeaders,
} from './session/workspace';
export { PROPOSALS_PATH, proposalPath, useChangesWaitForApproval } from './session/approval';
export { personName, roleWord } from './session/people';
export { useWorkspaceCan, useWorkspaceRole, workspacesQuery, workspacesQueryKey } from './session/workspace-role';
