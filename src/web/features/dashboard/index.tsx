import { Hono } from 'hono';
import type { AppEnv } from '@/http/app-types';
import { formIdempotency } from '@/http/middleware/idempotency';
import { requireWebUser } from '@/web/session';
import { postAssistant, postInvite, renderAssistant, renderInvite } from '../assistant/assistant';
import {
  boardPhoto,
  postEndKiosk,
  postEndShift,
  postNoShow,
  postStartKiosk,
  renderBoard,
  renderEndShift,
  renderNoShow,
  renderStartKiosk,
} from '../today/board';
import { renderBulk } from '../posting/bulk';
import { refuseOtherBusiness } from './context';
import { liveBusiness, renderLiveCounts } from './live';
import {
  downloadCredential,
  postAcceptConnection,
  postDeclineConnection,
  postInviteShifter,
  postInviteTeammate,
  postRemoveConnection,
  postRevokeInvitation,
  postTeammateStatus,
  renderCrew,
  renderDeclineConnection,
  renderInviteShifter,
  renderRemoveConnection,
  renderCrewShifter,
  renderRevokeInvitation,
  renderSuspendTeammate,
  postInviteAddress,
  postRotateJoinLink,
  postWithdrawCrewInvite,
  renderJoinPoster,
  renderRotateJoinLink,
  renderWithdrawCrewInvite,
} from '../crew/crew';
import { renderHome } from '../today/home';
import { postWelcome } from '../today/welcome';
import { exportInvoicesCsv, postBudget, renderMoney } from '../money/money';
import { postDefaultCard, postDeleteCard, postNewCard, renderNewCard } from '../money/money-cards';
import { postCharge, postRefund, renderInvoice } from '../money/money-invoice';
import { postShift, renderPostShift } from '../posting/post-shift';
import { postApprove, postApproveAll, postEdit, postResolve, renderTimesheet, renderTimesheets } from '../timesheets/timesheets';
import { shifterPages } from '../shifter';
import { postCopyWeek, renderCopyWeek } from '../schedule/copy-week';
import { renderSchedule } from '../schedule/schedule';
import { exportWeekCsv } from '../schedule/schedule-csv';
import {
  postDefaultBusiness,
  postLinkPartner,
  postPartnerScopes,
  postSettings,
  postUnlinkPartner,
  renderSettings,
} from '../settings/settings';
import { postShiftChange, renderShiftChange } from '../schedule/shift-change';
import { renderShift } from '../shift/shift';
import { postCancelShift, postUnassignShift, renderCancelShift, renderUnassignShift } from '../shift/shift-actions';
import {
  postDeleteTemplate,
  postEditTemplate,
  postGenerate,
  postTemplate,
  postTemplateActive,
  renderDeleteTemplate,
  renderEditTemplate,
  renderGenerate,
  renderGenerated,
  renderTemplates,
} from '../templates/templates';

/**
 * The web application for people who run a venue ({app_url}/dashboard): signed-in pages only, every
 * one calling the same services as the API with the person as the actor. Forms that write carry an
 * idempotency key (formIdempotency), so a form sent twice acts once.
 */
export const dashboardPages = new Hono<AppEnv>();
dashboardPages.use('*', requireWebUser);
dashboardPages.post('*', refuseOtherBusiness);
dashboardPages.post('*', formIdempotency);
dashboardPages.get('/', renderHome);
// The live updates of a business's pages: its WebSocket and the header counts' fragment.
dashboardPages.get('/live', liveBusiness);
dashboardPages.get('/live/counts', renderLiveCounts);
dashboardPages.post('/', postWelcome);
dashboardPages.get('/shifts/new', renderPostShift);
dashboardPages.post('/shifts/new', postShift);
dashboardPages.get('/schedule', renderSchedule);
dashboardPages.get('/schedule/copy-week', renderCopyWeek);
dashboardPages.post('/schedule/copy-week', postCopyWeek);
dashboardPages.get('/schedule/week.csv', exportWeekCsv);
dashboardPages.get('/shifts/:id/change', renderShiftChange);
dashboardPages.post('/shifts/:id/change', postShiftChange);
// A shift's page and its acts, after /shifts/new and /shifts/:id/change (registered first, so they win).
dashboardPages.get('/shifts/:id', renderShift);
dashboardPages.get('/shifts/:id/cancel', renderCancelShift);
dashboardPages.post('/shifts/:id/cancel', postCancelShift);
dashboardPages.get('/shifts/:id/unassign', renderUnassignShift);
dashboardPages.post('/shifts/:id/unassign', postUnassignShift);
dashboardPages.get('/bulk', renderBulk);
dashboardPages.route('/shifter', shifterPages);
dashboardPages.get('/assistant', renderAssistant);
dashboardPages.post('/assistant', postAssistant);
dashboardPages.get('/assistant/invite', renderInvite);
dashboardPages.post('/assistant/invite', postInvite);
dashboardPages.get('/templates', renderTemplates);
dashboardPages.post('/templates', postTemplate);
dashboardPages.get('/templates/:id/edit', renderEditTemplate);
dashboardPages.post('/templates/:id/edit', postEditTemplate);
dashboardPages.post('/templates/:id/active', postTemplateActive);
dashboardPages.get('/templates/:id/delete', renderDeleteTemplate);
dashboardPages.post('/templates/:id/delete', postDeleteTemplate);
dashboardPages.get('/templates/:id/generate', renderGenerate);
dashboardPages.post('/templates/:id/generate', postGenerate);
dashboardPages.get('/templates/:id/generated', renderGenerated);
dashboardPages.get('/money', renderMoney);
dashboardPages.post('/money/budget', postBudget);
dashboardPages.get('/money/invoices.csv', exportInvoicesCsv);
dashboardPages.get('/money/invoices/:id', renderInvoice);
dashboardPages.post('/money/invoices/:id/charge', postCharge);
dashboardPages.post('/money/invoices/:id/refund', postRefund);
dashboardPages.get('/money/cards/new', renderNewCard);
dashboardPages.post('/money/cards/new', postNewCard);
dashboardPages.post('/money/cards/:pm/default', postDefaultCard);
dashboardPages.post('/money/cards/:pm/delete', postDeleteCard);
dashboardPages.get('/timesheets', (c) => renderTimesheets(c));
dashboardPages.post('/timesheets/approve-all', postApproveAll);
dashboardPages.get('/timesheets/:id', renderTimesheet);
dashboardPages.post('/timesheets/:id/approve', postApprove);
dashboardPages.post('/timesheets/:id/edit', postEdit);
dashboardPages.post('/timesheets/:id/resolve', postResolve);
dashboardPages.get('/settings', renderSettings);
dashboardPages.post('/settings', postSettings);
dashboardPages.post('/settings/default', postDefaultBusiness);
dashboardPages.post('/settings/partners', postLinkPartner);
dashboardPages.post('/settings/partners/:client_id/unlink', postUnlinkPartner);
dashboardPages.post('/settings/partners/:client_id/scopes', postPartnerScopes);
dashboardPages.get('/crew', renderCrew);
dashboardPages.get('/crew/invite', renderInviteShifter);
dashboardPages.post('/crew/invite', postInviteShifter);
dashboardPages.post('/crew/invite-address', postInviteAddress);
dashboardPages.get('/crew/crew-invites/:id/withdraw', renderWithdrawCrewInvite);
dashboardPages.post('/crew/crew-invites/:id/withdraw', postWithdrawCrewInvite);
dashboardPages.get('/crew/join-link', renderRotateJoinLink);
dashboardPages.post('/crew/join-link', postRotateJoinLink);
dashboardPages.get('/crew/join-poster', renderJoinPoster);
dashboardPages.post('/crew/connections/:id/accept', postAcceptConnection);
dashboardPages.get('/crew/connections/:id/decline', renderDeclineConnection);
dashboardPages.post('/crew/connections/:id/decline', postDeclineConnection);
dashboardPages.get('/crew/connections/:id/remove', renderRemoveConnection);
dashboardPages.post('/crew/connections/:id/remove', postRemoveConnection);
dashboardPages.get('/crew/shifters/:shifterId', renderCrewShifter);
dashboardPages.get('/crew/shifters/:shifterId/credentials/:credentialId/document', downloadCredential);
dashboardPages.post('/crew/teammates/invite', postInviteTeammate);
dashboardPages.get('/crew/teammates/:userId/suspend', renderSuspendTeammate);
dashboardPages.post('/crew/teammates/:userId/status', postTeammateStatus);
dashboardPages.get('/crew/invitations/:id/revoke', renderRevokeInvitation);
dashboardPages.post('/crew/invitations/:id/revoke', postRevokeInvitation);
dashboardPages.get('/board', renderBoard);
dashboardPages.get('/board/shifts/:id/no-show', renderNoShow);
dashboardPages.post('/board/shifts/:id/no-show', postNoShow);
dashboardPages.get('/board/shifts/:id/end', renderEndShift);
dashboardPages.post('/board/shifts/:id/end', postEndShift);
dashboardPages.get('/board/photos/:shiftId/:side/:file', boardPhoto);
dashboardPages.get('/board/kiosk/start', renderStartKiosk);
dashboardPages.post('/board/kiosk/start', postStartKiosk);
dashboardPages.post('/board/kiosks/:id/end', postEndKiosk);
