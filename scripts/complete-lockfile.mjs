#!/usr/bin/env node
// Run after any `npm install` that rewrites package-lock.json (`npm run lock:complete`).
//
// The registry these machines use serves only the Linux builds of workerd's (and Biome's) platform packages,
// so npm leaves the macOS and Windows ones out of the lockfile, and `npm ci` then refuses the
// lockfile as out of sync. This adds the missing optional entries (version, os, cpu; no tarball is
// needed, since npm skips optional packages for other platforms without fetching them).
import { readFileSync, writeFileSync } from 'node:fs';

const PLATFORMS = {
  'darwin-64': ['darwin', 'x64'],
  'darwin-arm64': ['darwin', 'arm64'],
  'linux-64': ['linux', 'x64'],
  'linux-arm64': ['linux', 'arm64'],
  'windows-64': ['win32', 'x64'],
};
// Biome's CLI ships the same way, one optional package per platform: @biomejs/cli-<name>.
const BIOME_PLATFORMS = {
  'android-arm64': ['android', 'arm64'],
  'android-x64': ['android', 'x64'],
  'darwin-arm64': ['darwin', 'arm64'],
  'darwin-x64': ['darwin', 'x64'],
  'linux-arm64': ['linux', 'arm64', 'glibc'],
  'linux-arm64-musl': ['linux', 'arm64', 'musl'],
  'linux-x64': ['linux', 'x64', 'glibc'],
  'linux-x64-musl': ['linux', 'x64', 'musl'],
  'win32-arm64': ['win32', 'arm64'],
  'win32-x64': ['win32', 'x64'],
};
/** [os, cpu, libc?, license, engines] of a platform package this script knows, else null. */
function platformOf(dep) {
  if (dep.startsWith('@cloudflare/workerd-')) {
    const p = PLATFORMS[dep.slice('@cloudflare/workerd-'.length)];
    return p ? [p[0], p[1], undefined, 'Apache-2.0', { node: '>=16' }] : null;
  }
  if (dep.startsWith('@biomejs/cli-')) {
    const p = BIOME_PLATFORMS[dep.slice('@biomejs/cli-'.length)];
    return p ? [p[0], p[1], p[2], 'MIT OR Apache-2.0', { node: '>=14.21.3' }] : null;
  }
  return null;
}
const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const pkgs = lock.packages;
let added = 0;
for (const [key, entry] of Object.entries(pkgs)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const platform = platformOf(dep);
    if (!platform) continue;
    const base = key.slice(0, key.lastIndexOf('node_modules/'));
    const places = [`${key}/node_modules/${dep}`, `${base}node_modules/${dep}`, `node_modules/${dep}`];
    if (places.some((p) => pkgs[p]?.version === version)) continue;
    const target = pkgs[`${base}node_modules/${dep}`] ? `${key}/node_modules/${dep}` : `${base}node_modules/${dep}`;
    pkgs[target] = {
      version,
      cpu: [platform[1]],
      ...(entry.dev ? { dev: true } : {}),
      ...(platform[2] ? { libc: [platform[2]] } : {}),
      license: platform[3],
      optional: true,
      os: [platform[0]],
      engines: platform[4],
    };
    added += 1;
  }
}
lock.packages = Object.fromEntries(Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform entr${added === 1 ? 'y' : 'ies'} added`);
