export { listPassports, recordPassport, revokePassport } from './passports';
export { listPassportsQuery, passportListSchema, passportSchema, recordPassportInput } from './schemas';
