/**
 * Knowledge packs: benchmark figures per business sector, each citing its source or marked as an
 * estimate with its reasoning.
 *
 * They live here as typed constants, not in a table: they are global reference data (no workspace),
 * they change with the code that interprets them and get reviewed with it, and the compiler proves
 * every sector has every figure. The RLS suite requires every public table to be workspace-scoped, so a
 * table would have to sit in `private` anyway, where members could not read it without a function.
 */
import { SECTOR_IDS, type SectorId } from '@/lib/workspaces';
import { SECTOR_BENCHMARKS, type SectorBenchmark } from './benchmarks';

export { BENCHMARK_KEYS, SECTOR_BENCHMARKS, type BenchmarkKey, type Figure, type SectorBenchmark } from './benchmarks';
export { SOURCES, type Source } from './sources';

export interface LoadedBenchmark {
  /** The sector whose pack was used: the one asked for, or `other` when it is unknown. */
  sector: SectorId;
  figures: SectorBenchmark;
}

const isSectorId = (value: string): value is SectorId => (SECTOR_IDS as readonly string[]).includes(value);

/** The benchmark pack of a sector; unknown sectors (a workspace's free-text legacy value) get `other`. */
export function loadSectorBenchmark(sector: string): LoadedBenchmark {
  const id = isSectorId(sector) ? sector : 'other';
  return { sector: id, figures: SECTOR_BENCHMARKS[id] };
}
