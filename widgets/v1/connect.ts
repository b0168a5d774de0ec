import { startWidget } from './host';

startWidget('connect');
