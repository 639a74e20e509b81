#!/usr/bin/env node
// Stable bin entry (exists before the build, so npm can link it): runs the esbuild bundle.
require('../dist/cli.js').run();
