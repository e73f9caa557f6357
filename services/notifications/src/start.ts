import { runUntilSignal } from '@rental/http';
import { loadNotificationsConfig } from './config';
import { startNotifications } from './service';

runUntilSignal('notifications', () => startNotifications(loadNotificationsConfig()));
