import { Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { getDecline, getFind, postAccept, postClaim, postCounter, postDecline } from './find';
import { getProfile, postProfile, postRequestsSwitch } from './profile';
import { getCancel, getSchedule, postCancel, postFeed, postFeedOff } from './schedule';

/**
 * The shifter's work ({app_url}/dashboard/shifter/…): find shifts, answer requests, my schedule, the profile.
 */
export const shifterShiftPages = new Hono<AppEnv>();
shifterShiftPages.get('/find', getFind);
shifterShiftPages.post('/find/:id/claim', postClaim);
shifterShiftPages.post('/find/requests/:id/accept', postAccept);
shifterShiftPages.get('/find/requests/:id/decline', getDecline);
shifterShiftPages.post('/find/requests/:id/decline', postDecline);
shifterShiftPages.post('/find/requests/:id/counter', postCounter);
shifterShiftPages.get('/schedule', getSchedule);
shifterShiftPages.post('/schedule/feed', postFeed);
shifterShiftPages.post('/schedule/feed/off', postFeedOff);
shifterShiftPages.get('/schedule/:id/cancel', getCancel);
shifterShiftPages.post('/schedule/:id/cancel', postCancel);
shifterShiftPages.get('/profile', getProfile);
shifterShiftPages.post('/profile', postProfile);
shifterShiftPages.post('/profile/requests', postRequestsSwitch);
