/** The installable shifter app: the cached shell and next days' shifts, and punches queued offline. */
export function registerOffline(_sw: ServiceWorkerGlobalScope): void {}
