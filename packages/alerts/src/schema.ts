import { z } from 'zod';
import type { INTENSITIES } from './intensity.ts';
import type { AlertReport } from './types.ts';

// The parsers assemble a report from whatever the XML holds; this schema is what every report must be before it
// leaves the package, so a report JMA or a CAP feed words unexpectedly fails here with a code, not in the app.
const intensity = z.enum(['1', '2', '3', '4', '5-', '5+', '6-', '6+', '7'] satisfies typeof INTENSITIES);
const iso = z.iso.datetime({ offset: true });
const code = (digits: RegExp) => z.string().regex(digits);

export const alertReportSchema = z.strictObject({
  source: z.enum(['jma', 'cap']),
  eventId: z.string().min(1).max(200),
  serial: z.number().int().nonnegative(),
  reportId: z.string().min(1).max(400),
  infoType: z.enum(['issued', 'corrected', 'cancelled']),
  status: z.enum(['actual', 'exercise', 'test']),
  title: z.string().min(1).max(200),
  kind: z.enum(['earthquake', 'tsunami', 'weather', 'other']),
  reportedAt: iso,
  validUntil: iso.optional(),
  headline: z.string().max(4000),
  jmaType: z.string().optional(),
  earthquake: z
    .strictObject({
      originTime: iso.optional(),
      hypocentreName: z.string().optional(),
      hypocentreCode: code(/^\d{3,4}$/).optional(),
      magnitude: z.number().optional(),
      maxIntensity: intensity.optional(),
      areas: z.array(z.strictObject({ code: code(/^\d{3}$/), name: z.string(), intensity })),
      cities: z.array(z.strictObject({ code: code(/^\d{7}$/), name: z.string(), intensity })),
    })
    .optional(),
  tsunami: z
    .strictObject({
      regions: z.array(
        z.strictObject({
          code: code(/^\d{3}$/),
          name: z.string(),
          grade: z.enum(['major-warning', 'warning', 'advisory', 'forecast', 'none']),
          arrival: z.string().optional(),
          maxHeight: z.string().optional(),
        }),
      ),
    })
    .optional(),
  weather: z
    .strictObject({
      areas: z.array(
        z.strictObject({
          code: code(/^\d{7}$/),
          name: z.string(),
          warnings: z.array(
            z.strictObject({
              code: code(/^\d{2}$/),
              name: z.string(),
              level: z.enum(['emergency', 'warning', 'advisory']),
              state: z.enum(['issued', 'continued', 'lifted']),
            }),
          ),
        }),
      ),
    })
    .optional(),
  polygons: z.array(z.array(z.tuple([z.number().min(-90).max(90), z.number().min(-180).max(180)]))).optional(),
  areaCodes: z.array(z.string()).optional(),
  capSeverity: z.enum(['Extreme', 'Severe', 'Moderate', 'Minor', 'Unknown']).optional(),
}) satisfies z.ZodType<AlertReport>;
