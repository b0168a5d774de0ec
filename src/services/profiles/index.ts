export { findPublicBusiness, findPublicShifter, findPublicShifterById, type PublicBusiness, type PublicShifter } from './public';
