export const AUTH_SCHEMA = 'auth';
