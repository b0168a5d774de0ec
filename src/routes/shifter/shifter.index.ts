import { createRouter, serviceCtx } from '../../http/create-app';
import { createShifterProfile, getShifterOfUser, updateShifterProfile } from '../../services/accounts';
import { earnings, setEarningsGoal } from '../../services/insights';
import { getPayoutAccount, startPayoutOnboarding } from '../../services/payments';
import { appUrl } from '../../web/urls';
import * as earn from './earnings.routes';
import * as payout from './payout-account.routes';
import * as routes from './shifter.routes';

// Payout-account routes first: registration order is match order and OpenAPI document order.
export const shifterRouter = createRouter()
  .openapi(payout.startPayoutOnboarding, async (c) =>
    c.json(
      await startPayoutOnboarding(serviceCtx(c), {
        // Back to the account page when onboarding ends or the link expired (the page can ask for a new one).
        refreshUrl: appUrl(c, '/account'),
        returnUrl: appUrl(c, '/account'),
      }),
      200,
    ),
  )
  .openapi(payout.getPayoutAccount, async (c) => c.json(await getPayoutAccount(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(routes.ofUser, async (c) => c.json(await getShifterOfUser(serviceCtx(c), c.req.valid('query')), 200))
  .openapi(routes.create, async (c) => c.json(await createShifterProfile(serviceCtx(c), c.req.valid('json')), 201))
  .openapi(routes.updateProfile, async (c) => c.json(await updateShifterProfile(serviceCtx(c), c.req.valid('json')), 200))
  .openapi(earn.earnings, async (c) => c.json(await earnings(serviceCtx(c), c.req.valid('param').id, c.req.valid('query')), 200))
  .openapi(earn.earningsGoal, async (c) => c.json(await setEarningsGoal(serviceCtx(c), c.req.valid('param').id, c.req.valid('json')), 200));
