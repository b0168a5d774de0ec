export { kioskPunch, type KioskShift, kioskShifts } from './punch';
export {
  endKiosk,
  endKioskWithPassword,
  kioskActor,
  kioskSeenIsStale,
  type KioskView,
  listKiosks,
  type ResolvedKiosk,
  resolveKiosk,
  startKiosk,
  touchKiosk,
} from './sessions';
