export { startNotifications } from './service';
export { loadNotificationsConfig, notificationsVariables } from './config';
