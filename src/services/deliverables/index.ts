export { deleteDeliverable, listDeliverables, MAX_DELIVERABLES_PER_SIDE, recordDeliverable } from './deliverables';
export { DELIVERABLE_FILE_MAX_BYTES, MAX_FILES_PER_DELIVERABLE, readDeliverableFile, uploadDeliverableFile } from './files';
export {
  deliverableDeletedSchema,
  deliverableFileForm,
  deliverableFileSchema,
  deliverableListSchema,
  deliverableSchema,
  recordDeliverableInput,
} from './schemas';
