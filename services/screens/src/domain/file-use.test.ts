import { describe, expect, it } from 'vitest';
import { agendaUntil, type FileUse, type LicencePeriod, mayAssign, mayCountPlay, mayReportShown } from './file-use';

const T = Date.parse('2026-11-20T12:00:00Z');
const H = 3_600_000;
const own: FileUse = { ownerId: 'owner', deletedAt: null };
const ownDeleted: FileUse = { ownerId: 'owner', deletedAt: T - H };
const sold: FileUse = { ownerId: 'seller', deletedAt: null };
const soldDeleted: FileUse = { ownerId: 'seller', deletedAt: T - H };

interface Case {
  name: string;
  file: FileUse | undefined;
  licences: LicencePeriod[];
  /** each purpose's answer at T: may assign, may report as shown, may count a play starting at T, agenda from T until */
  assign: boolean;
  report: boolean;
  play: boolean;
  agenda: number | null;
}

// One table, every purpose's answer side by side: where two columns differ, the function's comment says why.
const cases: Case[] = [
  { name: 'own file', file: own, licences: [], assign: true, report: true, play: true, agenda: null },
  {
    name: 'own file, deleted',
    file: ownDeleted,
    licences: [],
    assign: false,
    report: true,
    play: true,
    agenda: null,
  },
  {
    name: 'bought, licence live',
    file: sold,
    licences: [{ from: T - H, to: T + H }],
    assign: true,
    report: true,
    play: true,
    agenda: T + H,
  },
  {
    name: 'bought, licence ended',
    file: sold,
    licences: [{ from: T - 2 * H, to: T - H }],
    assign: false,
    report: true,
    play: false,
    agenda: T,
  },
  {
    name: 'bought, licence ending at T (end excluded)',
    file: sold,
    licences: [{ from: T - H, to: T }],
    assign: false,
    report: true,
    play: false,
    agenda: T,
  },
  {
    name: 'bought, licence not started yet',
    file: sold,
    licences: [{ from: T + H, to: T + 2 * H }],
    assign: false,
    report: false,
    play: false,
    agenda: T,
  },
  {
    name: 'bought, two live licences',
    file: sold,
    licences: [
      { from: T - H, to: T + H },
      { from: T - 1, to: T + 3 * H },
    ],
    assign: true,
    report: true,
    play: true,
    agenda: T + 3 * H,
  },
  {
    name: "bought, licence live, the seller's file deleted",
    file: soldDeleted,
    licences: [{ from: T - 2 * H, to: T + H }],
    assign: false,
    report: true,
    play: true,
    agenda: T + H,
  },
  {
    name: "another member's file, no licence",
    file: sold,
    licences: [],
    assign: false,
    report: false,
    play: false,
    agenda: T,
  },
  {
    name: 'a file nobody announced',
    file: undefined,
    licences: [],
    assign: false,
    report: false,
    play: false,
    agenda: T,
  },
];

describe('file use: one policy per purpose, side by side', () => {
  it.each(cases)('$name', (c) => {
    expect({
      assign: mayAssign(c.file, 'owner', c.licences, T),
      report: mayReportShown(c.file, 'owner', c.licences, T),
      play: mayCountPlay(c.file, 'owner', c.licences, T),
      agenda: agendaUntil(c.file, 'owner', c.licences, T),
    }).toEqual({ assign: c.assign, report: c.report, play: c.play, agenda: c.agenda });
  });
});
