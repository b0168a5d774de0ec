export { crewAnalytics } from './crew-analytics';
export { earnings, setEarningsGoal } from './earnings';
export { goingRate } from './going-rate';
export { laborCosts } from './labor-costs';
export { type PeopleWeek, type PeopleWeekFigures, type PeopleWeekRow, type PeopleWeekShift, peopleWeek } from './people-week';
export { advanceInsightRollups, readWindow, rebuildInsightRollups } from './rollups';
export {
  type CrewAnalytics,
  crewAnalyticsSchema,
  type CrewMember,
  type Earnings,
  type EarningsShiftLine,
  type EarningsWeek,
  earningsGoalInput,
  earningsGoalSchema,
  earningsQuery,
  earningsSchema,
  type GoingRate,
  goingRateQuery,
  goingRateSchema,
  type LaborCosts,
  laborCostsQuery,
  laborCostsSchema,
} from './schemas';
