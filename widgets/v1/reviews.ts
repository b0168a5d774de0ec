import { startWidget } from './host';

startWidget('reviews');
