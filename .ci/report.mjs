#!/usr/bin/env node
// Reads the TAP output of one test run and prints what CI shows about it: one summary line
// (duration, passed, failed, skipped), every skipped test with its reason, every failure, and the
// slowest test files. The last line is machine-readable for .ci/run: "counts PASS FAIL SKIP".
//
//   node .ci/report.mjs <suite name> <tap log> <duration in seconds>
import { readFileSync } from 'node:fs';

const [suite, logFile, seconds] = process.argv.slice(2);
const lines = readFileSync(logFile, 'utf8').split('\n');

const path = [];
const skipped = [];
const failed = [];
const files = [];
for (const line of lines) {
  const subtest = /^( *)# Subtest: (.*)$/.exec(line);
  if (subtest) {
    const depth = subtest[1].length / 4;
    path.length = depth;
    path[depth] = subtest[2];
    continue;
  }
  const result = /^( *)(not ok|ok) \d+ - (.*?)(?: # (SKIP|TODO)\b ?(.*?))?(?: # time=([\d.]+)ms)?$/.exec(line);
  if (!result) continue;
  const depth = result[1].length / 4;
  const name = [...path.slice(0, depth), result[3]].join(' > ');
  if (depth === 0 && result[6]) files.push({ name: result[3], ms: Number(result[6]) });
  if (result[4] === 'SKIP') skipped.push(`${name}: ${result[5] || '(no reason given)'}`);
  else if (result[2] === 'not ok' && !result[4]) failed.push(name);
}

const summary = lines.filter((l) => /^# \{ total: \d+/.test(l)).pop();
const count = (key) => Number(new RegExp(`${key}: (\\d+)`).exec(summary ?? '')?.[1] ?? 0);
const pass = count('pass');
// No summary means the run died before the end: count it as one failure.
const fail = summary ? count('fail') : Math.max(1, failed.length);
const skip = count('skip');
const clock = (s) => `${Math.floor(s / 60)}m ${String(Math.round(s % 60)).padStart(2, '0')}s`;

console.log(`${suite}: ${clock(Number(seconds))}, ${pass} passed, ${fail} failed, ${skip} skipped${summary ? '' : ' (no TAP summary: the run did not finish)'}`);
if (skipped.length) {
  console.log(`  skipped in ${suite}:`);
  for (const s of skipped) console.log(`    - ${s}`);
}
if (failed.length) {
  // Leaf failures only: a failing test also fails its parents and its file.
  const leaves = failed.filter((f) => !failed.some((other) => other !== f && other.startsWith(`${f} > `)));
  console.log(`  failed in ${suite}:`);
  for (const f of leaves) console.log(`    - ${f}`);
}
console.log(`  slowest files in ${suite}:`);
for (const f of files.sort((a, b) => b.ms - a.ms).slice(0, 10)) console.log(`    ${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.name}`);
console.log(`counts ${pass} ${fail} ${skip}`);
