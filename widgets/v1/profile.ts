import { startWidget } from './host';

startWidget('profile');
