export { startNotifications, NOTIFICATIONS_SCHEMA } from './service';
export { loadNotificationsConfig, notificationsVariables } from './config';
