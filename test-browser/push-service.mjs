// A local stand-in of a web push service, for the browser tests (no push service on the internet is
// reachable from a test machine, and Chromium's own subscriptions point at Google's).
//
// - newVapidKeys(): a fresh VAPID key pair in the form the Worker takes (run.mjs passes it as
//   VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY, with LOCAL_PUSH_SERVICE=http://127.0.0.1:<port>, so every
//   push the Worker sends comes here, to the endpoint's path, the endpoint in X-Push-Endpoint).
// - newSubscription(): a subscription made here, as PushManager.subscribe would answer it: an https
//   endpoint on a push-service-like host name, and a P-256 key and auth secret whose private half this
//   module keeps, so what the Worker encrypted for it can be read back.
// - startPushService(port): an HTTP server that takes pushes as a push service does (201), checks the
//   VAPID signature (RFC 8292: an ES256 JWT for the endpoint's origin with the Worker's public key),
//   and decrypts the body (RFC 8291 / RFC 8188 aes128gcm) with the subscription's keys.
import { createECDH, createPublicKey, generateKeyPairSync, hkdfSync, createDecipheriv, randomBytes, verify } from 'node:crypto';
import { createServer } from 'node:http';

const b64u = (buf) => Buffer.from(buf).toString('base64url');
const fromB64u = (s) => Buffer.from(s, 'base64url');

export function newVapidKeys() {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' });
  const publicKey = b64u(Buffer.concat([Buffer.from([4]), fromB64u(jwk.x), fromB64u(jwk.y)]));
  return { publicKey, privateKey: jwk.d };
}

/** A subscription whose private key stays here; `endpoint` names the stand-in's host as a push service would. */
export function newSubscription() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const endpoint = `https://push.stand-in.test/push/${b64u(randomBytes(12))}`;
  return {
    endpoint,
    expirationTime: null,
    keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) },
    /** The plaintext of an aes128gcm body encrypted for this subscription (RFC 8291). */
    decrypt(body) {
      const salt = body.subarray(0, 16);
      const rs = body.readUInt32BE(16);
      const idlen = body[20];
      const serverKey = body.subarray(21, 21 + idlen);
      const records = body.subarray(21 + idlen);
      if (records.length > rs) throw new Error('more than one record: not what a 4 KB push holds');
      const secret = ecdh.computeSecret(serverKey);
      const info = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), serverKey]);
      const ikm = Buffer.from(hkdfSync('sha256', secret, auth, info, 32));
      const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
      const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
      const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
      decipher.setAuthTag(records.subarray(records.length - 16));
      const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
      // The last record ends with the delimiter 0x02 and then zero padding.
      let end = padded.length - 1;
      while (end >= 0 && padded[end] === 0) end--;
      if (padded[end] !== 2) throw new Error('no last-record delimiter');
      return padded.subarray(0, end).toString('utf8');
    },
  };
}

/** Checks `Authorization: vapid t=<jwt>, k=<key>` (RFC 8292) for `audience` with the expected public key. */
export function checkVapid(header, audience, publicKey) {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!m) throw new Error(`not a VAPID authorization: ${header}`);
  const [, jwt, k] = m;
  if (k !== publicKey) throw new Error('signed with another key than the Worker serves');
  const [head, claims, sig] = jwt.split('.');
  const point = fromB64u(k);
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33, 65)) },
    format: 'jwk',
  });
  const ok = verify('sha256', Buffer.from(`${head}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, fromB64u(sig));
  if (!ok) throw new Error('VAPID signature does not verify');
  const c = JSON.parse(fromB64u(claims).toString('utf8'));
  if (c.aud !== audience) throw new Error(`VAPID audience ${c.aud}, expected ${audience}`);
  if (!(c.exp * 1000 > Date.now())) throw new Error('VAPID token expired');
  return c;
}

/** Listens on 127.0.0.1:`port`; every push is kept in `received` (headers, raw body) and answered 201. */
export function startPushService(port) {
  const received = [];
  const waiters = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const push = {
        method: req.method,
        path: req.url,
        endpoint: req.headers['x-push-endpoint'],
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      received.push(push);
      for (const w of waiters.splice(0)) w();
      res.writeHead(201, { Location: `/message/${received.length}` }).end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () =>
      resolve({
        received,
        /** The first push for `endpoint`, waiting up to `ms` for it. */
        async next(endpoint, ms = 30_000) {
          const deadline = Date.now() + ms;
          for (;;) {
            const found = received.find((p) => p.endpoint === endpoint);
            if (found) return found;
            if (Date.now() > deadline) throw new Error(`no push for ${endpoint} within ${ms / 1000} s (got ${received.length})`);
            await new Promise((r) => {
              waiters.push(r);
              setTimeout(r, 500);
            });
          }
        },
        close: () => new Promise((r) => server.close(() => r())),
      }),
    );
  });
}
