// Wall-clock values shared by schedules (screens.ts) and opening hours (screen-health.ts), apart so neither imports the other.
import { z } from 'zod';

/** "HH:MM", 00:00..24:00 (24:00 = end of the day). */
export const TimeOfDay = z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, 'validation.timeOfDayInvalid');
/** 0 = Sunday .. 6 = Saturday (as Date.getDay). */
export const Weekday = z.number().int().min(0).max(6);
