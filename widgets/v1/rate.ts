import { startWidget } from './host';

startWidget('rate');
