#!/usr/bin/env node
// The `stylist` command: loads the TypeScript sources through tsx, from any working directory.
import { register } from 'tsx/esm/api';

register();
await import('../app/cli/main.ts');
