export { chargeConfirmed, type PrepayOutcome } from './prepay';
export { consumeConfirmation, formatAmount, issueConfirmation, openConfirmation } from './tokens';
