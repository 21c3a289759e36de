import { loadavg } from 'node:os';

/** The categories whose scores audit the page, not the machine: the e2e check asks for these alone. */
export const PAGE_CATEGORIES = ['accessibility', 'best-practices', 'seo'] as const;
const ALL_CATEGORIES = ['performance', ...PAGE_CATEGORIES] as const;
type Category = (typeof ALL_CATEGORIES)[number];

export interface LighthouseReport {
  /** The score of each category asked for, 0–100 (a category not asked for is absent: NaN). */
  scores: Record<Category, number>;
  metrics: Record<'first-contentful-paint' | 'largest-contentful-paint' | 'total-blocking-time' | 'cumulative-layout-shift', string>;
  lcpMs: number;
  tbtMs: number;
  /** Lighthouse's own measure of this machine's CPU at the time (higher is faster; see docs/home.md). */
  benchmarkIndex: number;
  /** The 1-minute load average when the run ended: the performance score follows it. */
  load: number;
  /** The CPU slowdown the run simulated (4 unless calibrated). */
  cpuSlowdownMultiplier: number;
  finalUrl: string;
}

/**
 * The CPU slowdown that makes a host of this benchmarkIndex emulate Lighthouse's reference phone, by
 * Lighthouse's own calculator (github.com/patrickhulce/lighthouse-cpu-throttling-calculator, linked from
 * its docs/throttling.md): 4× at 1,533, linear in three pieces from 1× at 150. Below 150 the calculator says
 * the host is too slow to emulate the phone at all: undefined.
 */
export function calibratedCpuSlowdown(benchmarkIndex: number): number | undefined {
  if (benchmarkIndex >= 1300) return 3 + (benchmarkIndex - 1300) / 233;
  if (benchmarkIndex >= 800) return 2 + (benchmarkIndex - 800) / 500;
  if (benchmarkIndex >= 150) return 1 + (benchmarkIndex - 150) / 650;
  return undefined;
}

/**
 * One Lighthouse run with its mobile profile as it ships (Moto G Power viewport, simulated slow 4G and
 * 4× CPU), in Debian's Chromium with no network beyond the local app, signed in by `cookie` (or not). Used by
 * the e2e check of the scores that do not depend on the host's speed (e2e/a11y.spec.ts) and by the benchmark,
 * which alone judges performance (bench/lighthouse). `cpuSlowdownMultiplier` replaces
 * the 4×, which fits a host with a benchmarkIndex of about 1,533 (`calibratedCpuSlowdown`); a faster host
 * needs more to emulate the same phone, a slower one less. `categories` narrows the run to those asked for.
 */
export async function runLighthouse(
  url: string,
  cookie: string,
  { cpuSlowdownMultiplier, categories = ALL_CATEGORIES }: { cpuSlowdownMultiplier?: number; categories?: readonly Category[] } = {},
): Promise<LighthouseReport> {
  const [{ default: lighthouse }, chromeLauncher] = await Promise.all([import('lighthouse'), import('chrome-launcher')]);
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...categories],
      extraHeaders: cookie ? { Cookie: cookie } : undefined,
    }, cpuSlowdownMultiplier ? { extends: 'lighthouse:default', settings: { throttling: { cpuSlowdownMultiplier } } } : undefined);
    const lhr = result!.lhr;
    const score = (id: Category) => (categories.includes(id) ? Math.round((lhr.categories[id]?.score ?? 0) * 100) : NaN);
    const display = (id: string) => lhr.audits[id]?.displayValue ?? '';
    return {
      scores: { performance: score('performance'), accessibility: score('accessibility'), 'best-practices': score('best-practices'), seo: score('seo') },
      metrics: {
        'first-contentful-paint': display('first-contentful-paint'),
        'largest-contentful-paint': display('largest-contentful-paint'),
        'total-blocking-time': display('total-blocking-time'),
        'cumulative-layout-shift': display('cumulative-layout-shift'),
      },
      lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
      tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
      benchmarkIndex: lhr.environment.benchmarkIndex,
      cpuSlowdownMultiplier: lhr.configSettings.throttling.cpuSlowdownMultiplier ?? NaN,
      load: Math.round(loadavg()[0]! * 100) / 100,
      finalUrl: lhr.finalDisplayedUrl,
    };
  } finally {
    chrome.kill();
  }
}
