export { startNotifications } from './service';
export { loadNotificationsConfig, notificationsVariables } from './config';
/** For tests that migrate its schema step by step. */
export { migrations as notificationsMigrations } from './migrations';
