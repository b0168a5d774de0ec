/**
 * /dashboard/settings: the business's profile (name, time zone, address; the slug is shown, it is set
 * when the business is made), its clock-in rules (the venue's position, from this device, a pasted
 * map link or typed, and the geofence radius around it; the photo), weekly budget and auto-fill on
 * cancel, all in one form with one Save through updateSettings, so nothing typed in one section is
 * lost by saving; a refusal shows the whole form again as it was sent, each message beside its
 * field. After it, the separate acts, each its own form: the default business (makeDefaultBusiness)
 * and the partners linked to it (the partner links' services). Teammates see the same page
 * read-only (the services refuse their posts too).
 */
// The parts: settings-shared.ts (the address, fields and what is loaded), settings-view.tsx (the
// owner's page), time-zones.ts (the zone list), venue-location.model.ts (the location's sentence,
// shared with venue-location.island.ts, the device's position), read-only.tsx (the teammate's),
// partners-card.tsx (the linked partners), settings-page.tsx (the GET and the settings' posts) and
// partner-posts.tsx (the partners' posts).

export { postLinkPartner, postPartnerScopes, postUnlinkPartner } from './partner-posts';
export { postDefaultBusiness, postSettings, renderSettings } from './settings-page';
export { SettingsView } from './settings-view';
