/**
 * /dashboard/settings: the business's profile (name, address, position, time zone; the slug is shown,
 * it is set when the business is made), its clock-in rules (geofence radius, photo), weekly budget and
 * auto-fill on cancel, whether it is the owner's default business, and the partners linked to it. Each
 * group is its own small form through updateSettings (or makeDefaultBusiness, the partner links'
 * services); a refusal shows the page again with what was typed in that form and the message beside
 * its field. Teammates see the same page read-only (the services refuse their posts too).
 */
// The parts: settings-shared.ts (the address, groups, fields and what is loaded), settings-view.tsx
// (the owner's page), read-only.tsx (the teammate's), partners-card.tsx (the linked partners),
// settings-page.tsx (the GET and the settings' posts) and partner-posts.tsx (the partners' posts).

export { postLinkPartner, postPartnerScopes, postUnlinkPartner } from './partner-posts';
export { postDefaultBusiness, postSettings, renderSettings } from './settings-page';
export { SettingsView } from './settings-view';
