import { Card, CopyField, Notice } from '@/web/components';
import { AccountShell, type PageBase } from './shared';

export const SECURITY_PATH = '/account/security';
export const SECURITY_TITLE = 'Two-factor authentication';

/**
 * The QR code of the authenticator app's setup, drawn from the service's path over `size` modules
 * with the 4-module quiet zone around it. Always dark on white (the dark theme does not touch it),
 * so phones scan it in either theme. No outside service and no inline style: attributes only.
 */
export function QrCode({ size, path }: { size: number; path: string }) {
  const full = size + 8;
  return (
    <svg
      class="qr"
      xmlns="http://www.w3.org/2000/svg"
      viewBox={`-4 -4 ${full} ${full}`}
      role="img"
      aria-label="QR code for your authenticator app"
    >
      <rect x="-4" y="-4" width={full} height={full} fill="#fff" />
      <path d={path} fill="#000" shape-rendering="crispEdges" />
    </svg>
  );
}

/** A base32 secret in groups of four, easier to type; the exact value stays in `data-secret`. */
export const groupedSecret = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/**
 * Backup codes, shown once: the answer to the POST that made them (no-store), never stored in a
 * readable form. Each code in <code>, and all of them in a copy field.
 */
export function BackupCodesView({ base, title, intro, codes }: { base: PageBase; title: string; intro: string; codes: string[] }) {
  return (
    <AccountShell base={base} title={title} current={SECURITY_PATH}>
      <Notice kind="success">{intro}</Notice>
      <Card title="Your backup codes">
        <p>
          If you lose your phone, each of these codes signs you in once instead of a code from the app. Keep them somewhere safe, like a
          password manager or on paper.
        </p>
        <ul class="code-list">
          {codes.map((code) => (
            <li>
              <code>{code}</code>
            </li>
          ))}
        </ul>
        <CopyField label="All backup codes" value={codes.join(' ')} id="backup-codes" />
        <Notice kind="info">
          <p>
            <strong>Save them now: they will not be shown again.</strong> You can make a new set at any time, which ends this one.
          </p>
        </Notice>
      </Card>
      <p>
        <a href={SECURITY_PATH}>Done: back to two-factor settings</a>
      </p>
    </AccountShell>
  );
}
