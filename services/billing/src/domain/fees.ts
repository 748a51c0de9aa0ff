/** Account that receives the platform's fee: a ledger account like a member's, so every point stays counted. */
export const PLATFORM_ACCOUNT = 'platform';
