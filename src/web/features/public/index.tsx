import { Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { formIdempotency } from '@/http/middleware/idempotency';
import { requireWebUser } from '@/web/session';
import { postJoin, renderJoinPage } from './join';
import { renderLanding } from './landing';
import { connectToBusiness, connectToShifter, renderBusinessProfile, renderShifterProfile } from './profiles';
import { postForgot, postReset, renderForgot, renderReset } from './recovery';
import { postSignup, renderSignup } from './signup';
import { postResend, postVerify, renderVerify } from './signup-verify';

/**
 * The pages a visitor reaches: the front door (/), sign-up and password recovery, public profiles (/s/{slug}, /b/{slug})
 * and a crew invitation or join link (/join/{token}). Only asking to connect and joining a crew need a
 * signed-in person; they write, so they carry an idempotency key.
 */
export const publicPages = new Hono<AppEnv>();
publicPages.use('/s/:slug/connect', requireWebUser, formIdempotency);
publicPages.use('/b/:slug/connect', requireWebUser, formIdempotency);

publicPages.get('/', renderLanding);
publicPages.get('/signup', renderSignup);
publicPages.post('/signup', postSignup);
publicPages.get('/signup/verify', renderVerify);
publicPages.post('/signup/verify', postVerify);
publicPages.post('/signup/resend', postResend);
publicPages.get('/login/forgot', renderForgot);
publicPages.post('/login/forgot', postForgot);
publicPages.get('/login/reset', renderReset);
publicPages.post('/login/reset', postReset);
publicPages.get('/s/:slug', (c) => renderShifterProfile(c));
publicPages.post('/s/:slug/connect', connectToShifter);
publicPages.get('/b/:slug', (c) => renderBusinessProfile(c));
publicPages.post('/b/:slug/connect', connectToBusiness);
publicPages.get('/join/:token', renderJoinPage);
publicPages.post('/join/:token', requireWebUser, formIdempotency, postJoin);
