import type { Response } from 'express';

/** A member's or a display's own answer: never kept by a cache on the way. */
export const noStore = (res: Response) => res.set('Cache-Control', 'no-store');
