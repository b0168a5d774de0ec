import { Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { formIdempotency } from '@/http/middleware/idempotency';
import { requireWebUser } from '@/web/session';
import { postDispute, postRespond, postReview, renderReviews } from './page';

/**
 * Reviews (/reviews): given, received, responses, disputes and the rating trend, for the person's
 * shifter profile or one of their businesses (`?as=`). Mounted at `/` beside the other shared pages,
 * so the guards are scoped to these paths.
 */
export const reviewsPages = new Hono<AppEnv>();
reviewsPages.use('/reviews', requireWebUser);
reviewsPages.use('/reviews/*', requireWebUser);
reviewsPages.post('/reviews/*', formIdempotency);
reviewsPages.get('/reviews', renderReviews);
reviewsPages.post('/reviews/new', postReview);
reviewsPages.post('/reviews/:id/respond', postRespond);
reviewsPages.post('/reviews/:id/dispute', postDispute);
