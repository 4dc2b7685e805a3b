// Runs Lighthouse at its default mobile settings on one page, several times in one Chromium,
// and prints each run's report as one line of JSON (e2e/lighthouse_test.go reads them).
//
//   node scripts/lighthouse.mjs <url> [runs]
//
// With LIGHTHOUSE_TRACES=<dir>, each measured run's Chromium trace is also written there
// (trace-1.json, ...), to open in the browser's performance panel and see what moved a score.
//
// Chromium is started once and given a first, unreported load of the page before the measured
// runs: a fresh Chromium spends its first seconds building its own browser UI (the address
// bar's popup pages are web pages in a renderer of their own), work that would otherwise be
// counted against the page on a two-core machine. Lighthouse clears the page's storage and
// cache before each run, so every measured run is a first visit.
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';

const [url, runsArg = '3'] = process.argv.slice(2);
const runs = Number(runsArg);
if (!url || !Number.isInteger(runs) || runs < 1) {
  console.error('usage: node scripts/lighthouse.mjs <url> [runs]');
  process.exit(2);
}

const chrome = await launch({
  chromePath: process.env.CHROME_PATH,
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
// The instrument yields to what it measures: once Chromium has started (at normal priority),
// Lighthouse (this process) lowers its own, so that handling the browser's events while it records
// does not take a core from the page on a two-core machine.
os.setPriority(10);
try {
  const flags = {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
  };
  await lighthouse(url, flags); // the warm-up load, not reported
  for (let i = 0; i < runs; i++) {
    const result = await lighthouse(url, flags);
    if (!result) throw new Error('lighthouse returned no result');
    process.stdout.write(JSON.stringify(result.lhr) + '\n');
    const traces = process.env.LIGHTHOUSE_TRACES;
    if (traces) {
      mkdirSync(traces, { recursive: true });
      writeFileSync(join(traces, `trace-${i + 1}.json`), JSON.stringify(result.artifacts.Trace));
    }
  }
} finally {
  chrome.kill();
}
