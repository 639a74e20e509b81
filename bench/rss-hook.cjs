'use strict';
/**
 * Preloaded (`node -r bench/rss-hook.cjs …`) into every process the benchmark times: on exit it
 * writes the process's peak resident set size (`process.resourceUsage().maxRSS`, KiB) to the file
 * named by BENCH_RSS_FILE, and its processor time (`{"cpuMs": user + system}`) to that name plus
 * `.cpu`. Linux reports the high-water mark of the whole process.
 */
const { writeFileSync } = require('node:fs');

const file = process.env.BENCH_RSS_FILE;
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(file, String(usage.maxRSS));
    writeFileSync(`${file}.cpu`, JSON.stringify({ cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000 }));
  });
}
