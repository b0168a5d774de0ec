import { exports } from 'cloudflare:workers';
import { BASE } from './api';
import { randomIp } from './auth';
import type { WebClient } from './web';

/** Waits (polling) until `ready()` holds; fails after `timeoutMs`. */
export async function until(ready: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ready()) {
    if (Date.now() > end) throw new Error('until: timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Opens a live page's WebSocket at `path` as the browser `b` (signed out: null) from `origin`: the
 * answer, the accepted socket, the JSON it hears (the keep-alive's `pong` left out) and how it closed.
 */
export async function openSocket<Heard>(path: string, b: WebClient | null, origin = BASE) {
  const headers: Record<string, string> = { Upgrade: 'websocket', Origin: origin, 'CF-Connecting-IP': randomIp() };
  if (b) headers.Cookie = b.cookieHeader();
  const res = await exports.default.fetch(new Request(`${BASE}${path}`, { headers, redirect: 'manual' }));
  const ws = res.webSocket;
  const heard: Heard[] = [];
  const closed: { code?: number; reason?: string } = {};
  ws?.accept();
  ws?.addEventListener('message', (e) => {
    if (e.data !== 'pong') heard.push(JSON.parse(e.data as string) as Heard);
  });
  ws?.addEventListener('close', (e) => {
    closed.code = e.code;
    closed.reason = e.reason;
  });
  return { res, ws, heard, closed };
}
