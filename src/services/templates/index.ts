export { copyWeek, previewCopyWeek } from './copy-week';
export {
  COPY_SKIP_REASONS,
  COPY_WEEK_MAX_SHIFTS,
  COPY_WEEK_MAX_WEEKS,
  type CopiedShift,
  type CopySkipReason,
  type CopyWeekInput,
  copyWeekInput,
  type CopyWeekPreview,
  copyWeekPreviewSchema,
  copyWeekQuery,
  type CopyWeekResult,
  copyWeekResultSchema,
  type SkippedShift,
} from './copy-week-schemas';
export { createTemplate, deleteTemplate, listTemplates, updateTemplate } from './crud';
export { generateWeekStart, mondayOf } from './dates';
export { generateFromTemplate, previewTemplateGeneration } from './generate';
export {
  createTemplateInput,
  daysOfWeekSchema,
  GENERATE_WEEK_OF_MAX_WEEKS_AHEAD,
  GENERATE_WEEKS,
  type GenerateQuery,
  type GeneratePreview,
  generatePreviewSchema,
  generateQuery,
  generateResultSchema,
  parseDays,
  SKIP_REASONS,
  type SkipReason,
  templateDeletedSchema,
  templateListSchema,
  templateSchema,
  type TemplateView,
  updateTemplateInput,
} from './schemas';
