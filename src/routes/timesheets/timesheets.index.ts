import { createRouter, serviceCtx } from '../../http/create-app';
import {
  approveTimesheet,
  disputeTimesheet,
  editTimesheet,
  getTimesheet,
  listBusinessTimesheets,
  listShifterTimesheets,
  resolveDispute,
} from '../../services/timesheets';
import * as routes from './timesheets.routes';

export const timesheetsRouter = createRouter()
  .openapi(routes.listBusinessTimesheets, async (c) =>
    c.json(await listBusinessTimesheets(serviceCtx(c), c.req.valid('param').id, c.req.valid('query')), 200),
  )
  .openapi(routes.listShifterTimesheets, async (c) =>
    c.json(await listShifterTimesheets(serviceCtx(c), c.req.valid('param').id, c.req.valid('query')), 200),
  )
  .openapi(routes.getTimesheet, async (c) => c.json(await getTimesheet(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.approveTimesheet, async (c) => c.json(await approveTimesheet(serviceCtx(c), c.req.valid('param').id), 200))
  .openapi(routes.editTimesheet, async (c) => c.json(await editTimesheet(serviceCtx(c), c.req.valid('param').id, c.req.valid('json')), 200))
  .openapi(routes.disputeTimesheet, async (c) =>
    c.json(await disputeTimesheet(serviceCtx(c), c.req.valid('param').id, c.req.valid('json')), 201),
  )
  .openapi(routes.resolveTimesheetDispute, async (c) =>
    c.json(await resolveDispute(serviceCtx(c), c.req.valid('param').id, c.req.valid('json')), 200),
  );
