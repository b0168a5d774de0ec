import { createRouter, serviceCtx } from '../../http/create-app';
import { counterSuggestionsFor } from '../../services/shifts/counter-suggest';
import { claimBroadcast } from '../../services/shifts/claim';
import { clockIn, clockOut, readClockPhoto, uploadClockPhoto } from '../../services/shifts/clock';
import { findConflicts } from '../../services/shifts/conflicts';
import { sendRequest } from '../../services/shifts/create';
import { listBroadcasts, listRequests } from '../../services/shifts/list';
import { shiftParty } from '../../services/access';
import { loadShift, viewLoaded } from '../../services/shifts/load';
import { acceptRequest } from '../../services/shifts/accept';
import { cancelShift } from '../../services/shifts/cancel';
import { changeRequest } from '../../services/shifts/change';
import { declineRequest } from '../../services/shifts/decline';
import { markNoShow } from '../../services/shifts/no-show';
import * as routes from './shift-requests.routes';

export const shiftRequestsRouter = createRouter()
  .openapi(routes.sendRequest, async (c) => {
    const ctx = serviceCtx(c);
    const id = await sendRequest(ctx, c.req.valid('json'));
    return c.json(viewLoaded(await loadShift(ctx, id)), 201);
  })
  .openapi(routes.listRequests, async (c) => c.json(await listRequests(serviceCtx(c), c.req.valid('json')), 200))
  .openapi(routes.listBroadcasts, async (c) => c.json(await listBroadcasts(serviceCtx(c), c.req.valid('json')), 200))
  .openapi(routes.conflicts, async (c) => c.json(await findConflicts(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(routes.changeRequest, async (c) => {
    const r = await changeRequest(serviceCtx(c), c.req.valid('json'));
    return c.json({ superseded: viewLoaded(r.original), shift_request: viewLoaded(r.child) }, 201);
  })
  .openapi(routes.getOne, async (c) => {
    const ctx = serviceCtx(c);
    const s = await loadShift(ctx, c.req.valid('param').id);
    const party = await shiftParty(ctx, s);
    const counters = await counterSuggestionsFor(ctx, party.callerShifterId, [{ row: s.row, business_lat: s.business.latitude, business_lon: s.business.longitude }]);
    return c.json({ ...viewLoaded(s), ...counters.get(s.row.id) }, 200);
  })
  .openapi(routes.accept, async (c) => c.json(viewLoaded(await acceptRequest(serviceCtx(c), c.req.valid('param').id)), 200))
  .openapi(routes.decline, async (c) =>
    c.json(viewLoaded(await declineRequest(serviceCtx(c), c.req.valid('param').id, c.req.valid('json')?.reason)), 200),
  )
  .openapi(routes.claim, async (c) => c.json(viewLoaded(await claimBroadcast(serviceCtx(c), c.req.valid('param').id)), 200))
  .openapi(routes.noShow, async (c) => c.json(viewLoaded(await markNoShow(serviceCtx(c), c.req.valid('param').id)), 200))
  .openapi(routes.cancel, async (c) => {
    const body = c.req.valid('json');
    const r = await cancelShift(serviceCtx(c), c.req.valid('param').id, { as: body.as, reason: body.reason ?? null });
    return c.json({ shift_request: viewLoaded(r.shift), auto_fill_shift_request_id: r.autoFill?.id ?? null }, 200);
  })
  .openapi(routes.clockIn, async (c) => c.json(viewLoaded(await clockIn(serviceCtx(c), c.req.valid('param').id, c.req.valid('json') ?? {})), 200))
  .openapi(routes.clockOut, async (c) => c.json(viewLoaded(await clockOut(serviceCtx(c), c.req.valid('param').id, c.req.valid('json') ?? {})), 200))
  .openapi(routes.clockPhoto, async (c) => {
    const r = await uploadClockPhoto(serviceCtx(c), c.req.valid('param').id, c.req.valid('query').side, c.req.valid('form').file);
    return c.json(r, 201);
  })
  .openapi(routes.readClockPhoto, async (c) => {
    const { shift_request_id, side, file } = c.req.valid('param');
    const obj = await readClockPhoto(serviceCtx(c), `clock-photos/${shift_request_id}/${side}/${file}`);
    return c.body(obj.body, 200, {
      'Content-Type': obj.httpMetadata?.contentType ?? 'application/octet-stream',
      'Cache-Control': 'private, max-age=300',
      'X-Content-Type-Options': 'nosniff',
    });
  });
