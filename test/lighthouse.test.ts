import { describe, expect, it } from 'vitest';
import { calibratedCpuSlowdown } from './lighthouse';

describe('calibratedCpuSlowdown', () => {
  it('gives the slowdowns of Lighthouse’s calculator at its anchor points', () => {
    expect(calibratedCpuSlowdown(150)).toBe(1);
    expect(calibratedCpuSlowdown(800)).toBe(2);
    expect(calibratedCpuSlowdown(1300)).toBe(3);
    expect(calibratedCpuSlowdown(1533)).toBeCloseTo(4, 2);
    expect(calibratedCpuSlowdown(2000)).toBeCloseTo(6, 2);
  });

  it('asks more than 4× of a host faster than the one 4× is calibrated for, and less of a slower one', () => {
    expect(calibratedCpuSlowdown(3200)).toBeGreaterThan(4);
    expect(calibratedCpuSlowdown(1100)).toBeCloseTo(2.6, 5);
  });

  it('says a host under 150 cannot emulate the phone', () => {
    expect(calibratedCpuSlowdown(149)).toBeUndefined();
  });
});
