/**
 * Where points are short (a marketplace card, a confirmation above the balance, a plan upgrade), a link to this
 * address opens the shell's points page with its purchase dialog already open. A plain address works across Module
 * Federation with nothing shared at run time: a remote needs only the router, the dialog stays the shell's (with its
 * card form and Stripe loader), and the page reads the parameter once and drops it, so back and reload do not reopen it.
 */
export const BUY_POINTS_PARAM = 'buy';
export const BUY_POINTS_PATH = `/points?${BUY_POINTS_PARAM}=1`;
