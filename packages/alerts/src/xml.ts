import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { AlertParseError } from './errors.ts';

/** Larger than any JMA report (the biggest sample, a prefecture's VPWW54 with its time series, is 0.55 MB). */
export const MAX_XML_BYTES = 4 * 1024 * 1024;

/** A parsed element: text, or an object of children and `@`-prefixed attributes (text in `#text`). */
export type XmlNode = string | { [name: string]: XmlNode | XmlNode[] | undefined };

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // JMA mixes default and prefixed namespaces (jmx_eb:Magnitude beside Magnitude-less Body): names are read bare
  removeNSPrefix: true,
  // codes such as '0120600' and '05' must stay strings
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // only the five predefined entities and character references: a DOCTYPE never reaches the parser
  processEntities: true,
  htmlEntities: false,
  maxNestedTags: 64,
});

/**
 * Parses untrusted XML (a feed's report, a replayed file) into plain objects. Refused before parsing: oversize input,
 * and any DTD, since entity definitions are what XXE and billion-laughs attacks need and no JMA or CAP document has one.
 */
export function parseXml(xml: string): Record<string, XmlNode> {
  if (typeof xml !== 'string') throw new AlertParseError('ALERT_XML_INVALID', 'not a string');
  // TextEncoder rather than Buffer: the player bundles this module for the browser
  if (xml.length > MAX_XML_BYTES || new TextEncoder().encode(xml).length > MAX_XML_BYTES) {
    throw new AlertParseError('ALERT_XML_TOO_LARGE', `larger than ${MAX_XML_BYTES} bytes`);
  }
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new AlertParseError('ALERT_XML_DTD_REFUSED', 'DTDs are not accepted');
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw new AlertParseError('ALERT_XML_INVALID', `line ${valid.err.line}: ${valid.err.msg}`);
  }
  const doc = parser.parse(xml) as Record<string, XmlNode>;
  if (!doc || typeof doc !== 'object') throw new AlertParseError('ALERT_XML_INVALID', 'no document element');
  return doc;
}

/** The child `name` of a node (the first when repeated). */
export function child(node: XmlNode | XmlNode[] | undefined, ...path: string[]): XmlNode | undefined {
  let cur: XmlNode | XmlNode[] | undefined = node;
  for (const name of path) {
    const one: XmlNode | undefined = Array.isArray(cur) ? cur[0] : cur;
    if (one === undefined || typeof one === 'string') return undefined;
    cur = one[name];
  }
  return Array.isArray(cur) ? cur[0] : cur;
}

/** Every child `name` of a node, repeated or not. */
export function children(node: XmlNode | XmlNode[] | undefined, name: string): XmlNode[] {
  const one = Array.isArray(node) ? node[0] : node;
  if (one === undefined || typeof one === 'string') return [];
  const c = one[name];
  if (c === undefined) return [];
  return Array.isArray(c) ? c : [c];
}

/** The text of a node ('' when absent or empty). */
export function text(node: XmlNode | undefined): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return node;
  const t = node['#text'];
  return typeof t === 'string' ? t : '';
}

export function attr(node: XmlNode | undefined, name: string): string | undefined {
  if (node === undefined || typeof node === 'string') return undefined;
  const a = node[`@${name}`];
  return typeof a === 'string' ? a : undefined;
}
