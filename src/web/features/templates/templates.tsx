// The entry of the shift templates pages: what the dashboard mounts, from the parts beside it
// (templates-list, templates-edit, templates-generate; their forms and values in templates-form and templates-values).

/**
 * Shift templates (/dashboard/templates): the business's weekly templates, each created, changed,
 * paused or deleted with plain forms, and generated 1–12 weeks ahead in two steps: the preview
 * (services/templates previewTemplateGeneration: what would be created and what is skipped as
 * already there, nothing written) and then the confirmed generate, whose result (created, skipped)
 * is shown after it. The owner and active teammates may do all of it, as the service allows.
 */

export { postDeleteTemplate, postEditTemplate, renderDeleteTemplate, renderEditTemplate } from './templates-edit';
export { postGenerate, renderGenerate, renderGenerated } from './templates-generate';
export { postTemplate, postTemplateActive, renderTemplates } from './templates-list';
export { daysText } from './templates-values';
