'use strict';
/**
 * Preloaded (`node -r bench/rss-hook.cjs …`) into every process the benchmark times: on exit it
 * writes the process's peak resident set size (`process.resourceUsage().maxRSS`, KiB) to the file
 * named by BENCH_RSS_FILE. Linux reports the high-water mark of the whole process.
 */
const { writeFileSync } = require('node:fs');

const file = process.env.BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
