import { describe, expect, it } from 'vitest';
import { SECTOR_IDS } from '@/lib/workspaces';
import { BENCHMARK_KEYS, SECTOR_BENCHMARKS, SOURCES, loadSectorBenchmark, type BenchmarkKey } from '.';

const isRate = (key: BenchmarkKey) => key.endsWith('Rate');

describe('knowledge packs', () => {
  it('cover every sector, and at least 30 real ones', () => {
    expect(Object.keys(SECTOR_BENCHMARKS).sort()).toEqual([...SECTOR_IDS].sort());
    expect(SECTOR_IDS.filter((id) => id !== 'other').length).toBeGreaterThanOrEqual(30);
  });

  it('give every sector every figure, each with a source or marked as an estimate with its reasoning', () => {
    const known = new Set<string>(Object.values(SOURCES).map((s) => s.publication));
    for (const sector of SECTOR_IDS) {
      for (const key of BENCHMARK_KEYS) {
        const figure = SECTOR_BENCHMARKS[sector][key];
        const where = `${sector}.${key}`;
        expect(figure, where).toBeDefined();
        expect(Number.isFinite(figure.value), where).toBe(true);
        if (isRate(key)) expect(figure.value > 0 && figure.value < 1, `${where} is a fraction`).toBe(true);
        else expect(figure.value, where).toBeGreaterThan(0);
        if ('estimate' in figure) {
          expect(figure.estimate, where).toBe(true);
          expect(figure.reasoning.length, `${where} explains the estimate`).toBeGreaterThan(30);
        } else {
          expect(known.has(figure.source.publication), `${where} cites a listed source`).toBe(true);
          expect(figure.detail.length, `${where} says which number it took`).toBeGreaterThan(10);
        }
      }
    }
  });

  it('uses the published figures where RESEARCH.md has them', () => {
    expect(SECTOR_BENCHMARKS.hair_salon.rebookingRate).toMatchObject({ value: 0.52, source: SOURCES.kitombaRebooking2021 });
    expect(SECTOR_BENCHMARKS.dental.noShowRate).toMatchObject({ value: 0.23, source: SOURCES.dantas2018 });
    expect(SECTOR_BENCHMARKS.pet_grooming.visitCadenceDays).toMatchObject({ value: 28, source: SOURCES.moego });
    expect(SECTOR_BENCHMARKS.hair_salon.noShowRate).toMatchObject({ estimate: true });
  });

  it('falls back to `other` for an unknown sector', () => {
    expect(loadSectorBenchmark('hair_salon')).toEqual({ sector: 'hair_salon', figures: SECTOR_BENCHMARKS.hair_salon });
    expect(loadSectorBenchmark('submarine_repair')).toEqual({ sector: 'other', figures: SECTOR_BENCHMARKS.other });
  });
});
