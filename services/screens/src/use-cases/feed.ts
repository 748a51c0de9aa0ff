/** Who starts and ends alert takeovers in the records and the log (members are user ids, never this word). */
export const FEED = 'feed';
