/** The six v1 widgets; each is one script, /embed/v1/<name>.js, and one frame page. */
export const WIDGET_NAMES = ['connect', 'schedule', 'profile', 'shifts', 'reviews', 'rate'] as const;
export type WidgetName = (typeof WIDGET_NAMES)[number];

/** The message a frame posts to its host page: its id (the nonce the host gave it) and its height. */
export const HEIGHT_MESSAGE = 'shiftmarket:v1:height';
