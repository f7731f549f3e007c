export const DELIVERY_SCHEMA = 'delivery';
