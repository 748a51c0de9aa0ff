/**
 * Title matching as a Japanese member expects: NFKC folds full-width Latin and digits and half-width katakana into
 * one form, then case is ignored. The stored title and the query are folded the same way.
 */
export function foldTitle(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

export function pagination(page: number, limit: number, total: number) {
  const totalPages = Math.ceil(total / limit);
  return { page, limit, total, totalPages, hasMore: page < totalPages };
}
