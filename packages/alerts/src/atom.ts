import { AlertParseError } from './errors.ts';
import type { AtomEntry } from './types.ts';
import { attr, child, children, parseXml, text } from './xml.ts';

/**
 * The entries of a JMA Atom feed (eqvol.xml, extra.xml and their long-term versions): each names one report by its
 * id and links to its XML. Entries without a link are skipped (nothing to fetch).
 */
export function parseAtomFeed(xml: string): AtomEntry[] {
  const doc = parseXml(xml);
  const feed = doc.feed;
  if (!feed || typeof feed === 'string') throw new AlertParseError('ALERT_NOT_SUPPORTED', 'not an Atom feed');
  return children(feed, 'entry').flatMap((entry) => {
    const links = children(entry, 'link');
    const link = links.find((l) => (attr(l, 'rel') ?? 'alternate') === 'alternate') ?? links[0];
    const url = attr(link, 'href') ?? '';
    const id = text(child(entry, 'id'));
    if (!url || !id) return [];
    return [{ id, url, updated: text(child(entry, 'updated')), title: text(child(entry, 'title')) }];
  });
}
