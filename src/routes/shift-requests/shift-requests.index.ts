import { createRouter, serviceCtx } from '../../http/create-app';
import {
  acceptRequest,
  cancelShift,
  changeRequest,
  claimBroadcast,
  clockIn,
  clockOut,
  declineRequest,
  findConflicts,
  getShiftRequest,
  listBroadcasts,
  listRequests,
  markNoShow,
  readClockPhoto,
  sendRequestWithWarnings,
  unassignShift,
  uploadClockPhoto,
} from '../../services/shifts';
import { prepayShift } from '../../services/payments';
import { appOrigin } from '../../web/urls';
import * as prepay from './prepay.routes';
import * as routes from './shift-requests.routes';

// One service call per handler: the services take the validated input and return the response view.
export const shiftRequestsRouter = createRouter()
  .openapi(routes.sendRequest, async (c) => c.json(await sendRequestWithWarnings(serviceCtx(c), c.req.valid('json')), 201))
  .openapi(routes.listRequests, async (c) => c.json(await listRequests(serviceCtx(c), c.req.valid('json')), 200))
  .openapi(routes.listBroadcasts, async (c) => c.json(await listBroadcasts(serviceCtx(c), c.req.valid('json')), 200))
  .openapi(routes.conflicts, async (c) => c.json(await findConflicts(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(routes.changeRequest, async (c) => c.json(await changeRequest(serviceCtx(c), c.req.valid('json')), 201))
  .openapi(routes.getOne, async (c) => c.json(await getShiftRequest(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.accept, async (c) => c.json(await acceptRequest(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.decline, async (c) => c.json(await declineRequest(serviceCtx(c), c.req.valid('param').id, c.req.valid('json')), 200))
  .openapi(routes.claim, async (c) => c.json(await claimBroadcast(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.noShow, async (c) => c.json(await markNoShow(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.cancel, async (c) => c.json(await cancelShift(serviceCtx(c), c.req.valid('param').id, c.req.valid('json')), 200))
  .openapi(routes.unassign, async (c) => c.json(await unassignShift(serviceCtx(c), c.req.valid('param').id, c.req.valid('json')), 200))
  .openapi(routes.clockIn, async (c) => c.json(await clockIn(serviceCtx(c), c.req.valid('param').id, c.req.valid('json')), 200))
  .openapi(routes.clockOut, async (c) => c.json(await clockOut(serviceCtx(c), c.req.valid('param').id, c.req.valid('json')), 200))
  .openapi(routes.clockPhoto, async (c) =>
    c.json(await uploadClockPhoto(serviceCtx(c), c.req.valid('param').id, c.req.valid('query').side, c.req.valid('form').file), 201),
  )
  .openapi(routes.readClockPhoto, async (c) => {
    const photo = await readClockPhoto(serviceCtx(c), c.req.valid('param'));
    return c.body(photo.body, 200, {
      'Content-Type': photo.content_type,
      'Cache-Control': 'private, max-age=300',
      'X-Content-Type-Options': 'nosniff',
    });
  });

// Its own router so src/routes/index.ts mounts it after the payment-method routes: mount order is match order and document order.
export const prepayRouter = createRouter().openapi(prepay.prepayShiftRoute, async (c) =>
  c.json(await prepayShift(serviceCtx(c), c.req.valid('param').id, { requestOrigin: appOrigin(c) }), 200),
);
