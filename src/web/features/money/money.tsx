/**
 * /dashboard/money: the business's money, for its owner (and admins): card payments waiting for
 * 3-D Secure, the week's labor costs with the last 8 weeks charted against the budget (edited in
 * place), the invoices by status with a CSV export, the saved cards and the going rate. Each invoice
 * opens its own page (money-invoice.tsx) to charge or refund it; cards are managed in money-cards.tsx.
 * An active teammate gets a page saying money is the owner's (the services refuse them too).
 */
// The parts: money-shared.tsx (the address, the query, the teammate's page), invoices-section.tsx
// (the invoices and their CSV export), labor-section.tsx and labor-breakdown.tsx (the labor costs and
// the budget), cards-section.tsx, going-rate-section.tsx, and money-page.tsx (the page and the budget's post).

export type { BudgetFormState } from './labor-section';
export { cardName } from './cards-section';
export { chargedOf, exportInvoicesCsv, INVOICES_PER_PAGE, invoiceHref, invoiceStanding } from './invoices-section';
export { loadMoney, type MoneyData, MoneyView, postBudget, renderMoney } from './money-page';
export { MONEY, type MoneyQuery, moneyQuery, OwnersOnlyView, renderOwnersOnly } from './money-shared';
