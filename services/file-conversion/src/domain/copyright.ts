/** Result of the text analysis of a document (copyright_checks, checkType text_analysis). */
export interface CopyrightAnalysis {
  detectedPatterns: string[];
  riskLevel: 'low' | 'medium' | 'high';
}

// Marks that say someone holds rights in the text. Strong ones alone make the risk high.
const patterns: Array<{ name: string; re: RegExp; strong: boolean }> = [
  { name: '©', re: /©|\(c\)\s*\d{4}/i, strong: false },
  { name: 'copyright', re: /\bcopyright\b/i, strong: false },
  { name: '著作権', re: /著作権/, strong: false },
  { name: 'all rights reserved', re: /all\s+rights\s+reserved/i, strong: true },
  { name: '無断転載', re: /無断(転載|複製|複写|使用)/, strong: true },
  { name: '禁無断転載', re: /禁(無断)?転載/, strong: true },
  {
    name: 'ISBN',
    re: /\bISBN(?:-1[03])?:?\s*(?:97[89][-\s]?)?\d{1,5}[-\s]?\d{1,7}[-\s]?\d{1,7}[-\s]?[\dX]\b/i,
    strong: true,
  },
];

/**
 * Looks for copyright marks in a document's text. No mark: low; a plain mark (©, copyright, 著作権): medium;
 * a reservation (All rights reserved, 無断転載, ISBN) or several marks: high.
 */
export function analyseCopyright(text: string): CopyrightAnalysis {
  const found = patterns.filter((p) => p.re.test(text));
  const detectedPatterns = found.map((p) => p.name);
  const riskLevel = found.some((p) => p.strong) || found.length >= 3 ? 'high' : found.length > 0 ? 'medium' : 'low';
  return { detectedPatterns, riskLevel };
}
