#!/usr/bin/env node
// The `stylist` command: loads the TypeScript sources (typescript.mjs), from any working directory.
import { canRestart, serveRestart } from './serve-restart.mjs';

// `stylist serve` starts itself again with what only a starting process reads (serve-restart.mjs).
const restart = process.argv[2] === 'serve' && canRestart() ? serveRestart(process.execArgv, process.env) : null;
if (restart) process.execve(process.execPath, [process.execPath, ...restart.flags, ...process.argv.slice(1)], restart.env);

await import('./typescript.mjs');
await import('../app/cli/main.ts');
