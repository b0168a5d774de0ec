export { createTemplate, deleteTemplate, listTemplates, updateTemplate } from './crud';
export { generateFromTemplate, previewTemplateGeneration } from './generate';
export {
  createTemplateInput,
  daysOfWeekSchema,
  GENERATE_WEEKS,
  type GeneratePreview,
  generatePreviewSchema,
  generateQuery,
  generateResultSchema,
  parseDays,
  templateDeletedSchema,
  templateListSchema,
  templateSchema,
  type TemplateView,
  updateTemplateInput,
} from './schemas';
