#!/usr/bin/env node
// Stable bin entry (exists before the build, so npm can link it): runs the bundled language server.
require('../dist/server.js');
