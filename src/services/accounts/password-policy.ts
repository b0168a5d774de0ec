/**
 * Which new passwords are refused besides their length (10 to 200 characters, schemas.ts): the ones
 * an attacker tries first. Three checks, on the password in lower case:
 *
 * - **Repeated**: fewer than four different characters (`aaaaaaaaaa`, `1111122222`), or one piece
 *   said again and again (`abcabcabcabc`, `passwordpassword`).
 * - **A run in order**: a stretch of the alphabet, of the digits (going round from 9 to 0) or of a
 *   keyboard's rows or columns, forwards or backwards (`abcdefghij`, `9876543210`, `qwertyuiopasdf`).
 * - **Common**: on the list of common passwords of `@zxcvbn-ts/language-common` (49,233 passwords
 *   ranked by how often they appear in leaked password sets, the list zxcvbn estimates strength
 *   with), as typed, or once the digits and signs at its end are taken off (`password12`,
 *   `iloveyou2024`, `Password123!`), or with look-alike digits and signs read as letters
 *   (`p@ssw0rd99`).
 *
 * The list is imported on the first check in an isolate, not when the Worker starts: unpacking it
 * takes tens of milliseconds, which only sign-up, a password change and a reset should pay.
 */
const ADVICE = 'Choose one that is harder to guess: a few unrelated words make a strong one.';

export const PASSWORD_PROBLEMS = {
  common: `This password is one of the most common ones, which are tried first when accounts are attacked. ${ADVICE}`,
  repeated: `This password repeats a few characters (like aaaaaaaaaa or abcabcabc), which makes it easy to guess. ${ADVICE}`,
  run: `This password is a run of letters, digits or keys in order (like abcdefghij, 9876543210 or qwertyuiop), which makes it easy to guess. ${ADVICE}`,
} as const;

/** Walks along which a run in order is looked for (each also backwards). */
const WALKS = [
  'abcdefghijklmnopqrstuvwxyz',
  '01234567890123456789',
  'qwertyuiopasdfghjklzxcvbnm',
  'qwertzuiopasdfghjklyxcvbnm',
  'azertyuiopqsdfghjklmwxcvbn',
  '1234567890qwertyuiopasdfghjklzxcvbnm',
  '1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p',
  'qazwsxedcrfvtgbyhnujmikolp',
];
const RUNS = [...WALKS, ...WALKS.map((w) => [...w].reverse().join(''))];

/** Look-alike digits and signs read as the letters they stand for (`p@ssw0rd`). */
const LOOK_ALIKES: Record<string, string> = { '@': 'a', '4': 'a', '3': 'e', '1': 'i', '!': 'i', '0': 'o', $: 's', '5': 's', '7': 't' };
const readAsLetters = (s: string) => [...s].map((ch) => LOOK_ALIKES[ch] ?? ch).join('');

function isRepeated(p: string): boolean {
  if (new Set(p).size < 4) return true;
  for (let unit = 1; unit <= p.length / 2; unit++) {
    let same = true;
    for (let i = unit; i < p.length && same; i++) same = p[i] === p[i % unit];
    if (same) return true;
  }
  return false;
}

const isRun = (p: string) => RUNS.some((walk) => walk.includes(p));

let commonList: Promise<ReadonlySet<string>> | null = null;

function commonPasswords(): Promise<ReadonlySet<string>> {
  commonList ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common']),
    (err: unknown) => {
      commonList = null;
      throw err;
    },
  );
  return commonList;
}

async function isCommon(p: string): Promise<boolean> {
  const list = await commonPasswords();
  // The digits and signs at the end taken off; what is left must be long enough to be a word.
  const base = p.replace(/[^\p{L}]+$/u, '');
  const candidates = [p, readAsLetters(p)];
  if (base.length >= 4 && base !== p) candidates.push(base, readAsLetters(base));
  return candidates.some((c) => list.has(c));
}

/** Why a new password is refused, in words for the person choosing it; null when it is fine. */
export async function passwordProblem(password: string): Promise<string | null> {
  const p = password.toLowerCase();
  if (isRepeated(p)) return PASSWORD_PROBLEMS.repeated;
  if (isRun(p)) return PASSWORD_PROBLEMS.run;
  if (await isCommon(p)) return PASSWORD_PROBLEMS.common;
  return null;
}
