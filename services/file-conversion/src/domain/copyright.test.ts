import { describe, expect, it } from 'vitest';
import { analyseCopyright } from './copyright';
import { fileLimitFor } from './tiers';

describe('copyright text analysis', () => {
  it('finds no mark in plain text: low risk', () => {
    expect(analyseCopyright('Trace-based just-in-time type specialization')).toEqual({
      detectedPatterns: [],
      riskLevel: 'low',
    });
  });
  it('a plain copyright mark is medium, a reservation is high', () => {
    expect(analyseCopyright('© 2024 Example Inc.').riskLevel).toBe('medium');
    expect(analyseCopyright('Copyright 2009 ACM. All rights reserved.')).toEqual({
      detectedPatterns: ['copyright', 'all rights reserved'],
      riskLevel: 'high',
    });
    expect(analyseCopyright('本書の無断転載を禁じます').detectedPatterns).toContain('無断転載');
    expect(analyseCopyright('ISBN 978-4-06-123456-7').riskLevel).toBe('high');
    expect(analyseCopyright('著作権は著者に帰属します').detectedPatterns).toEqual(['著作権']);
  });
});

describe('tier file limits', () => {
  it('follows the spec: free/trial 3, standard 30, creator 50, legacy tiers, fallback 3', () => {
    expect(fileLimitFor('free')).toBe(3);
    expect(fileLimitFor('trial')).toBe(3);
    expect(fileLimitFor('standard')).toBe(30);
    expect(fileLimitFor('creator')).toBe(50);
    expect(fileLimitFor('300point')).toBe(3);
    expect(fileLimitFor('3000point')).toBe(30);
    expect(fileLimitFor('unknown')).toBe(3);
    expect(fileLimitFor(undefined)).toBe(3);
  });
});
