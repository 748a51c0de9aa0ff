// Bad input gets a stable code and nothing else: untrusted XML arrives from the network and from replayed files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AlertParseError, parseJmaReport, parseReport } from '../src/index.ts';
import { MAX_XML_BYTES } from '../src/xml.ts';

const vxse52 = readFileSync(join(import.meta.dirname, '../samples/jma/32-35_04_03_240613_VXSE52.xml'), 'utf8');
const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(AlertParseError);
    return (e as AlertParseError).code;
  }
  throw new Error('did not throw');
};

describe('bad XML', () => {
  it('malformed → ALERT_XML_INVALID', () => {
    expect(code(() => parseJmaReport(vxse52.replace('</Control>', '')))).toBe('ALERT_XML_INVALID');
    expect(code(() => parseJmaReport(''))).toBe('ALERT_XML_INVALID');
  });

  it('a DTD, as in billion laughs or XXE → ALERT_XML_DTD_REFUSED, before any expansion', () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><Report>&lol2;</Report>`;
    expect(code(() => parseJmaReport(laughs))).toBe('ALERT_XML_DTD_REFUSED');
    const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><Report>&x;</Report>`;
    expect(code(() => parseJmaReport(xxe))).toBe('ALERT_XML_DTD_REFUSED');
  });

  it('oversize → ALERT_XML_TOO_LARGE', () => {
    const big = vxse52.replace('</Report>', `<!--${'x'.repeat(MAX_XML_BYTES)}--></Report>`);
    expect(code(() => parseJmaReport(big))).toBe('ALERT_XML_TOO_LARGE');
  });

  it('another document → ALERT_NOT_SUPPORTED; an unknown status or info type → ALERT_REPORT_INVALID', () => {
    expect(code(() => parseJmaReport('<html><body/></html>'))).toBe('ALERT_NOT_SUPPORTED');
    expect(code(() => parseReport('<feed/>'))).toBe('ALERT_NOT_SUPPORTED');
    expect(code(() => parseJmaReport(vxse52.replace('<Status>通常</Status>', '<Status>本番</Status>')))).toBe(
      'ALERT_REPORT_INVALID',
    );
    expect(code(() => parseJmaReport(vxse52.replace('<InfoType>発表</InfoType>', '<InfoType>延期</InfoType>')))).toBe(
      'ALERT_REPORT_INVALID',
    );
    expect(
      code(() => parseJmaReport(vxse52.replace('<Code type="震央地名">820</Code>', '<Code type="震央地名">8a</Code>'))),
    ).toBe('ALERT_REPORT_INVALID');
  });

  it('a report of a kind the package does not read parses as other', () => {
    const other = vxse52.replace('<Title>震源に関する情報</Title>', '<Title>地震回数に関する情報</Title>');
    expect(parseJmaReport(other)).toMatchObject({ kind: 'other', title: '地震回数に関する情報' });
    expect(parseJmaReport(other).earthquake).toBeUndefined();
  });
});
