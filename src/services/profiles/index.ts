export {
  BUSINESS_SEARCH_BOUNDS,
  type BusinessSearchInput,
  type BusinessSearchResult,
  type FoundBusiness,
  searchPublicBusinesses,
} from './business-search';
export { findPublicBusiness, findPublicShifter, findPublicShifterById, type PublicBusiness, type PublicShifter } from './public';
export {
  SHIFTER_SEARCH_BOUNDS,
  type ShifterSearchInput,
  type ShifterSearchResult,
  searchPublicShifters,
} from './shifter-search';
