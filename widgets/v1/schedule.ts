import { startWidget } from './host';

startWidget('schedule');
