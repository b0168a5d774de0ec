export { BUSINESSES, DEMO_EMAIL_DOMAIN, demoEmail, PEOPLE } from './cast';
export { resetDemoData, seedDemoData } from './seed';
