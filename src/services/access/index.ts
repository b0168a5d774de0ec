/**
 * Who may act: one place for a caller's standing toward a business (owner, active teammate, admin),
 * a shifter's records, a shift (party, crew of an open broadcast) and the SQL scopes lists use.
 * Every surface (REST, MCP tools, partner routes, jobs) asks here; new kinds of standing are added here.
 */
export * from './admin';
export * from './agent';
export * from './business';
export * from './crew';
export * from './partner';
export * from './shift';
export * from './shifter';
