import { startWidget } from './host';

startWidget('shifts');
