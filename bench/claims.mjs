// Claims: POST /v1/shift_request/{id}/claim.
// (a) uncontended: one shifter claims N different open broadcasts one at a time (each claim needs a
//     fresh broadcast; the seeded ones never overlap, so the conflict check always passes);
// (b) contended: per round, 50 connected shifters claim the same broadcast at once; exactly one may
//     get 200 and every other one 409 CLAIM-LOST-ERR.
import { call, describe, printTable, ms, summarize } from './common.mjs';

const claimPath = (id) => `/v1/shift_request/${id}/claim`;

export async function benchClaims(base, manifest) {
  const c = manifest.claims;
  const failures = [];

  for (const id of c.warmup) {
    const r = await call(base, 'POST', claimPath(id), c.soloKey);
    if (r.status !== 200) failures.push(`warm-up ${id}: ${describe(r)}`);
  }

  const solo = [];
  for (const id of c.uncontended) {
    const t0 = performance.now();
    const r = await call(base, 'POST', claimPath(id), c.soloKey);
    solo.push(performance.now() - t0);
    if (r.status !== 200 || r.body?.shifter_id !== c.soloShifter || r.body?.request_status !== 2)
      failures.push(`uncontended ${id}: ${describe(r)}`);
  }
  const uncontended = summarize(solo);

  async function round(id) {
    const t0 = performance.now();
    const answers = await Promise.all(
      c.contenderKeys.map(async (key) => {
        const r = await call(base, 'POST', claimPath(id), key);
        return { status: r.status, code: r.body?.error?.code ?? null, at: performance.now() - t0, r };
      }),
    );
    const winners = answers.filter((a) => a.status === 200);
    const lost = answers.filter((a) => a.status === 409 && a.code === 'CLAIM-LOST-ERR');
    const other = answers.filter((a) => a.status !== 200 && !(a.status === 409 && a.code === 'CLAIM-LOST-ERR'));
    return {
      id,
      contenders: answers.length,
      winners: winners.length,
      lost: lost.length,
      other: other.map((a) => describe(a.r)),
      firstWinnerMs: winners.length ? Math.min(...winners.map((w) => w.at)) : null,
      firstAnswerMs: Math.min(...answers.map((a) => a.at)),
      totalMs: Math.max(...answers.map((a) => a.at)),
      lossLatency: summarize(lost.map((a) => a.at)),
    };
  }
  for (const id of c.contendedWarmup) await round(id);
  const rounds = [];
  for (const id of c.contended) rounds.push(await round(id));
  const exactlyOne = rounds.filter((r) => r.winners === 1 && r.lost === r.contenders - 1).length;
  for (const r of rounds) {
    if (r.winners !== 1) failures.push(`contended ${r.id}: ${r.winners} winners`);
    for (const o of r.other) failures.push(`contended ${r.id}: ${o}`);
  }
  const contended = {
    rounds: rounds.length,
    contendersPerRound: c.contenderKeys.length,
    roundsWithExactlyOneWinner: exactlyOne,
    firstWinner: summarize(rounds.filter((r) => r.firstWinnerMs !== null).map((r) => r.firstWinnerMs)),
    roundTotal: summarize(rounds.map((r) => r.totalMs)),
    perRound: rounds.map(({ id, winners, lost, firstWinnerMs, totalMs }) => ({ id, winners, lost, firstWinnerMs, totalMs })),
  };
  return { uncontended, contended, failures };
}

export function printClaims(res) {
  const u = res.uncontended;
  const k = res.contended;
  printTable(
    'Claims — POST /v1/shift_request/{id}/claim (ms)',
    ['case', 'n', 'p50', 'p95', 'p99', 'mean', 'max'],
    [
      ['uncontended, one claim at a time', u.n, ms(u.p50), ms(u.p95), ms(u.p99), ms(u.mean), ms(u.max)],
      [
        `contended ${k.contendersPerRound}×: time to the winner's 200`,
        k.firstWinner.n,
        ms(k.firstWinner.p50),
        ms(k.firstWinner.p95),
        ms(k.firstWinner.p99),
        ms(k.firstWinner.mean),
        ms(k.firstWinner.max),
      ],
      [
        `contended ${k.contendersPerRound}×: time to all ${k.contendersPerRound} answers`,
        k.roundTotal.n,
        ms(k.roundTotal.p50),
        ms(k.roundTotal.p95),
        ms(k.roundTotal.p99),
        ms(k.roundTotal.mean),
        ms(k.roundTotal.max),
      ],
    ],
  );
  console.log(
    `Contended rounds with exactly one 200 and ${k.contendersPerRound - 1}× 409 CLAIM-LOST-ERR: ${k.roundsWithExactlyOneWinner}/${k.rounds}` +
      (k.roundsWithExactlyOneWinner === k.rounds ? ' ✓' : ' ✗'),
  );
}
